import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { date, flagOr, id, optional, optionalFlag, shortText } from '../../../shared/platform/request-fields.js';
import { openEndorsement } from '../../../shared/lifecycle/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'new_revision',
  summary: 'Opens a mid-term change (an endorsement) of an issued policy: an open revision copied from the one in force on revision_date, editable by every structure operation; the policy in force is unchanged until it is issued',
  permission: 'policies:write',
  input: () => z.object({
    policy_id: id(),
    revision_date: date(),
    // Accepted as the vendor's clients send them; dates are always checked against the term.
    override_effective_date_checks: optionalFlag(),
    check_for_policy_changes: flagOr(false),
    force_persistent_builder: optionalFlag(),
    renewal_status: optional(shortText()),
  }),
  resources: { table: 'write' },
  handle: async (input, { principal }) =>
    openEndorsement(principal, { policyId: input.policy_id, revisionDate: input.revision_date, checkForPolicyChanges: input.check_for_policy_changes }),
});
