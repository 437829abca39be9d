import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { getAllEffectiveDates } from '../../../shared/products/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'get_all_effective_dates',
  summary: 'The product versions: the shipped one and every published line file, with their effective dates and change history',
  permission: 'policies:read',
  input: () => z.object({}),
  resources: { table: 'read' },
  handle: async () => getAllEffectiveDates(),
});
