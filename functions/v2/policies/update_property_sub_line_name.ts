import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { name, uuid } from '../../../shared/platform/request-fields.js';
import { updatePropertySubLineName } from '../../../shared/policies/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'update_property_sub_line_name',
  summary: 'Renames a sub line instance of a property',
  permission: 'policies:write',
  input: () => z.object({ property_sub_line_id: uuid(), property_sub_line_name: name() }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => updatePropertySubLineName(principal, input),
});
