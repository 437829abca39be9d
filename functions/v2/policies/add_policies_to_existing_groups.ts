import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { list, uuid } from '../../../shared/platform/request-fields.js';
import { addToExistingGroups } from '../../../shared/policy-groups/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'add_policies_to_existing_groups',
  summary: 'Moves policies into existing groups ({policy_id, policy_group_id}); a policy leaves the group it was in',
  permission: 'policies:write',
  input: () => z.object({ policies: list(z.object({ policy_id: uuid(), policy_group_id: uuid() }), 100) }),
  resources: { table: 'write' },
  handle: async (input, { principal }) =>
    addToExistingGroups(principal, input.policies.map((entry) => ({ policyId: entry.policy_id, groupId: entry.policy_group_id, external: false }))),
});
