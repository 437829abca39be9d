import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { cancelMove } from '../../../shared/moves/cancel.js';
import { Reply } from '../../../shared/platform/envelope.js';
import { BusinessRuleError } from '../../../shared/platform/errors.js';
import { date, eitherOf, id, name, optional, optionalId } from '../../../shared/platform/request-fields.js';
import { billingSettings } from '../../../shared/billing/index.js';
import { policyBegun } from '../../../shared/policies/index.js';
import { moneyPathTracing } from '../../../shared/platform/tracing.js';

/**
 * The cancel reason a vendor's free-text `cancel_reason` names (by name, whatever its case),
 * used only when no `cancel_reason_id` is given.
 */
async function cancelReasonId(input: { cancel_reason_id?: string; cancel_reason?: string }): Promise<string> {
  if (input.cancel_reason_id) return input.cancel_reason_id;
  const wanted = (input.cancel_reason ?? '').trim().toLowerCase();
  const reason = (await billingSettings()).cancelReasons.find((candidate) => candidate.name.trim().toLowerCase() === wanted);
  if (!reason) throw new BusinessRuleError(`cancel_reason: ${(input.cancel_reason ?? '').slice(0, 100)} is not a cancel reason`);
  return reason.id;
}

export const handler = defineOperation({
  version: 'v2',
  name: 'cancel_policy',
  summary: 'Cancels a policy term: with cancel_pending_date it goes to cancellation pending; with only cancel_date it is cancelled at once (revision, cancel dates, return premium, notice, note) in one transaction',
  permission: 'policies:cancel',
  // The policy's partition is the move's first read: begun beside the caller's authentication.
  beginWithCaller: (fields) => policyBegun(fields.policy_id),
  input: () => z
    .object({
      policy_id: id(),
      policy_term_id: optionalId(),
      cancel_reason_id: optionalId(),
      /** Free text matched to a cancel reason by name; used when no cancel_reason_id is given. */
      cancel_reason: optional(name()),
      cancel_date: optional(date()),
      cancel_pending_date: optional(date()),
    })
    .check(eitherOf('cancel_date', 'cancel_pending_date'))
    .check(eitherOf('cancel_reason_id', 'cancel_reason')),
  resources: { table: 'write' },
  tracing: moneyPathTracing,
  // The interface documents {success, message} with message a single string, failures included.
  messageShape: 'single',
  handle: async (input, { principal }) => {
    const outcome = await cancelMove(principal, {
      policyId: input.policy_id,
      termId: input.policy_term_id,
      reasonId: await cancelReasonId(input),
      cancelDate: input.cancel_date,
      cancelPendingDate: input.cancel_pending_date,
    });
    return new Reply({ success: true, message: outcome.message, data: null });
  },
});
