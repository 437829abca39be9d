import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { freeFormValue, list } from '../../../shared/platform/request-fields.js';
import { postExternalPolicies } from '../../../shared/policy-groups/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'post_external_policies',
  summary:
    'Records policies another system keeps ({policy_number, policy_type_id, other_details}), insert only: a number that exists (external or ours) is skipped; answers inserted and failed lists, each failure with its reason',
  permission: 'policies:write',
  // Each entry is read on its own: one that fails validation is listed under `failed` (spec 7.8), not refused with the call.
  input: () => z.object({ policies: list(freeFormValue()) }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => postExternalPolicies(principal, input.policies),
});
