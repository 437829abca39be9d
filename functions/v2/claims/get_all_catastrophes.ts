import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { allCatastrophes } from '../../../shared/claims/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'get_all_catastrophes',
  summary: 'The catastrophes the carrier declared, newest first: title, PCS number, states, counties, dates, the moratorium declared for it',
  permission: 'claims:read',
  input: () => z.object({}),
  resources: { table: 'read' },
  handle: async () => allCatastrophes(),
});
