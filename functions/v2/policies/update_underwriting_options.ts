import { z } from 'zod';
import { defineOperation } from '../../../shared/operation.js';
import { updateUnderwritingOptions } from '../../../shared/policies/item-service.js';
import { id, underwritingOption } from '../../../shared/policies/schemas.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'update_underwriting_options',
  summary: "Records the revision's underwriting options",
  permission: 'policies:write',
  input: z.object({ revision_id: id(), underwriting_options: z.array(underwritingOption) }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => updateUnderwritingOptions(principal, input),
});
