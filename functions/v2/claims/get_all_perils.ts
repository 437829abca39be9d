import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { allPerils } from '../../../shared/claims/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'get_all_perils',
  summary: "The product's perils, each with its id and code (the same) and name",
  permission: 'claims:read',
  input: () => z.object({}),
  resources: { table: 'read' },
  handle: async () => allPerils(),
});
