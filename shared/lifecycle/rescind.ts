/**
 * The rescind move (the nightly job, once an unpaid balance is paid before its cancel date):
 * a pending cancellation for that reason is withdrawn from the term, and the registered
 * contributions (billing's non-payment state, the note) land with it in one transaction.
 */
import { todayIso } from '../platform/dates.js';
import { clock } from '../platform/clock.js';
import { BusinessRuleError, NotFoundError } from '../platform/errors.js';
import type { Principal } from '../platform/principal.js';
import { runTransaction } from '../platform/transactions.js';
import { policyWithinReach } from '../policies/index.js';
import type { DecisionOptions } from './cancel.js';
import { joinedWrites, type Contribution } from './joining.js';
import type { RescindedCancellation } from './model.js';

export interface RescindRequest {
  policyId: string;
  /** The policy's active term when absent. */
  termId?: string;
  /** Only a cancellation pending for this reason is withdrawn; whatever is pending when absent (by hand). */
  reasonId?: string;
  summary: string;
  /** A person's decision (rescind_cancellation): refused when nothing is pending, and the unpaid invoice behind a non-payment pending is excused. */
  byHand?: boolean;
}

export class NothingPendingError extends BusinessRuleError {}

/** What the rescind move asks of the areas: their parts in the withdrawal (billing's non-payment state, search, the note, the event). */
export interface RescindWiring {
  rescind: readonly Contribution<RescindedCancellation>[];
}

export async function rescindCancellation(wiring: RescindWiring, principal: Principal, request: RescindRequest, options: DecisionOptions = {}): Promise<{ policyNumber: string; cancelDate: string | null }> {
  const now = options.now ?? clock.now();
  const { policy, terms } = await policyWithinReach(principal, { policyId: request.policyId });
  const term = terms.find((candidate) => candidate.id === (request.termId ?? policy.activeTermId));
  if (!term) throw new NotFoundError(`Policy term ${request.termId ?? policy.activeTermId}`);
  const withdrawn = term.cancellationStatus === 'pending' && (request.reasonId === undefined || term.cancelReasonId === request.reasonId);
  if (request.byHand && !withdrawn) throw new NothingPendingError(`Policy ${policy.policyNumber} has no cancellation pending`);
  const rescinded: RescindedCancellation = {
    decisionDate: todayIso(now),
    decidedAt: now.toISOString(),
    decidedBy: options.decidedBy ?? principal.contactId,
    policyId: policy.id,
    policyNumber: policy.policyNumber,
    termId: term.id,
    ...(policy.agencyId ? { agencyId: policy.agencyId } : {}),
    contactIds: [...policy.contactIds],
    summary: request.summary,
    otherPendingRemains: term.cancellationStatus === 'pending' && !withdrawn,
    withdrawn,
    term,
    ...(request.byHand ? { byHand: true } : {}),
  };
  await runTransaction(await joinedWrites(wiring.rescind, rescinded), { label: `Policy ${policy.policyNumber}` });
  return { policyNumber: policy.policyNumber, cancelDate: term.cancelPendingDate ?? null };
}
