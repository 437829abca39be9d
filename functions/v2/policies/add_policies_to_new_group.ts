import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { flagOr, list, uuid } from '../../../shared/platform/request-fields.js';
import { MAX_GROUP_MEMBERS, addPoliciesToNewGroups } from '../../../shared/policy-groups/index.js';

const member = () => z.object({ policy_id: uuid(), external_policy: flagOr(false) });

export const handler = defineOperation({
  version: 'v2',
  name: 'add_policies_to_new_group',
  summary: 'Forms one new policy group of each inner list (policies of ours or external ones); a policy leaves the group it was in',
  permission: 'policies:write',
  input: () => z.object({ policies: list(list(member(), MAX_GROUP_MEMBERS).check(z.minLength(1, 'must name at least one policy')), 100) }),
  resources: { table: 'write' },
  handle: async (input, { principal }) =>
    addPoliciesToNewGroups(principal, input.policies.map((group) => group.map((entry) => ({ policyId: entry.policy_id, external: entry.external_policy })))),
});
