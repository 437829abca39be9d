import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { uuid } from '../../../shared/platform/request-fields.js';
import { getAllStates } from '../../../shared/products/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'get_all_states',
  summary: 'The states of a product version, each with whether the line is written there',
  permission: 'policies:read',
  input: () => z.object({ effective_date_id: uuid() }),
  resources: { table: 'read' },
  handle: async (input) => getAllStates(input.effective_date_id),
});
