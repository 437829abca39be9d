import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { flagOr, list, uuid } from '../../../shared/platform/request-fields.js';
import { updateInactiveGroups } from '../../../shared/policy-groups/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'update_inactive_policy_groups',
  summary: 'Deletes each named group left with fewer than two policies, and removes its id from each of its policies, in one transaction per group',
  permission: 'policies:write',
  // force_removal (vendor parameter): delete each named group even when it still has two or more policies.
  input: () => z.object({ group_ids: list(uuid(), 100), force_removal: flagOr(false) }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => updateInactiveGroups(principal, input.group_ids, input.force_removal),
});
