import { z } from 'zod';
import { defineOperation } from '../../../shared/operation.js';
import { updatePropertySubLineName } from '../../../shared/policies/risk-service.js';
import { id } from '../../../shared/policies/schemas.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'update_property_sub_line_name',
  summary: 'Renames a sub line instance of a property',
  permission: 'policies:write',
  input: z.object({ property_sub_line_id: id(), property_sub_line_name: z.string().trim().min(1, 'must not be empty') }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => updatePropertySubLineName(principal, input),
});
