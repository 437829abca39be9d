import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { boundedString, uuid } from '../../../shared/platform/request-fields.js';
import { getAllLines } from '../../../shared/products/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'get_all_lines',
  summary: 'The lines a product version writes in a state (location_id: the state id get_all_states answers); none where the line is not written',
  permission: 'policies:read',
  input: () => z.object({ effective_date_id: uuid(), location_id: boundedString(40) }),
  resources: { table: 'read' },
  handle: async (input) => getAllLines(input.effective_date_id, input.location_id),
});
