import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { id } from '../../../shared/platform/request-fields.js';
import { updateUnderwritingOptions, underwritingOptions } from '../../../shared/policies/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'update_underwriting_options',
  summary: "Records the revision's underwriting options",
  permission: 'policies:write',
  input: () => z.object({ revision_id: id(), underwriting_options: underwritingOptions() }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => updateUnderwritingOptions(principal, input),
});
