import * as z from 'zod/mini';
import { defineIdempotentOperation } from '../../../shared/define-operation.js';
import { decimal, eitherOf, optional, optionalFlag, optionalId } from '../../../shared/platform/request-fields.js';
import { issueMove } from '../../../shared/moves/issue.js';
import { issueOpenRevisionMove } from '../../../shared/moves/open-revisions.js';
import { moneyPathTracing } from '../../../shared/platform/tracing.js';
import { policyBegun, revisionBegun } from '../../../shared/policies/index.js';

export const handler = defineIdempotentOperation({
  version: 'v2',
  name: 'issue',
  summary: 'Commits a bound quote (revision committed, status Active, commit date set) with the invoices and Declaration other areas add, in one transaction; with issue_info.revision_id, commits an open endorsement (Endorsement row, Endorsement Declaration, note, search record, re-applied later revisions) in one transaction',
  permission: 'policies:issue',
  // An endorsement's issue reads it and the policy it names first: begun beside the caller's authentication (a quote's issue reads other records).
  beginWithCaller: ({ issue_info }) => {
    const named = (issue_info ?? {}) as { policy_id?: unknown; revision_id?: unknown };
    return named.revision_id ? [...revisionBegun(named.revision_id), ...policyBegun(named.policy_id)] : [];
  },
  input: () => z.object({
    issue_info: z
      .object({
        policy_id: optionalId(),
        policy_number: optionalId(),
        // Beyond the interface: the billing schedule to invoice (an id of retrieve_billing_schedule_options); Full Pay when absent.
        billing_schedule_id: optionalId(),
        // An open endorsement (new_revision) to commit, as the vendor's clients send it (policy_id beside it).
        revision_id: optionalId(),
        // The vendor's fields: with override_commission, commission_rate (percent) is this policy's rate instead of its agency's schedule.
        commission_rate: optional(decimal({ min: 0, max: 100 })),
        override_commission: optionalFlag(),
      })
      .check(eitherOf('policy_id', 'policy_number', 'revision_id')),
  }),
  resources: { table: 'write' },
  tracing: moneyPathTracing,
  // An open endorsement moves money: a retry with the same Idempotency-Key answers the first answer.
  idempotent: {
    scope: 'issue_endorsement',
    inProgress: 'The endorsement sent earlier with this Idempotency-Key is still being issued',
    when: ({ issue_info }) => !!issue_info.revision_id,
  },
  handle: async ({ issue_info }, { principal }) => {
    if (issue_info.revision_id) {
      // An open endorsement, or a revision of a kind with a move of its own (a rewrite's), committed by that move.
      return issueOpenRevisionMove(principal, { revisionId: issue_info.revision_id, ...(issue_info.policy_id ? { policyId: issue_info.policy_id } : {}) });
    }
    // Beyond the vendor's fields: the status the policy is now in, so that a client need not read it back.
    return {
      ...(await issueMove(principal, { policyId: issue_info.policy_id, policyNumber: issue_info.policy_number, billingScheduleId: issue_info.billing_schedule_id, ...(issue_info.override_commission && issue_info.commission_rate !== undefined ? { commissionOverrideRate: String(issue_info.commission_rate) } : {}) })),
      status: 'Active' as const,
    };
  },
});
