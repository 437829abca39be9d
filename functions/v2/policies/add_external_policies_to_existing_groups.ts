import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { list, uuid } from '../../../shared/platform/request-fields.js';
import { addToExistingGroups } from '../../../shared/policy-groups/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'add_external_policies_to_existing_groups',
  summary: 'Moves external policies (by their id) into existing groups ({policy_id, policy_group_id}); one leaves the group it was in',
  permission: 'policies:write',
  input: () => z.object({ external_policies: list(z.object({ policy_id: uuid(), policy_group_id: uuid() }), 100) }),
  resources: { table: 'write' },
  handle: async (input, { principal }) =>
    addToExistingGroups(principal, input.external_policies.map((entry) => ({ policyId: entry.policy_id, groupId: entry.policy_group_id, external: true }))),
});
