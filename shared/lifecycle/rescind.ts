/**
 * The rescind move (the nightly job, once an unpaid balance is paid before its cancel date):
 * a pending cancellation for that reason is withdrawn from the term, and the registered
 * contributions (billing's non-payment state, the note) land with it in one transaction.
 */
import { todayIso } from '../platform/dates.js';
import { NotFoundError } from '../platform/errors.js';
import type { Principal } from '../platform/principal.js';
import { runTransaction } from '../platform/transactions.js';
import { policyWithinReach, rescissionWrites } from '../policies/index.js';
import type { DecisionOptions } from './cancel.js';
import { contributedWrites } from './contributions.js';
import type { MoveWiring, RescindedCancellation } from './model.js';

export interface RescindRequest {
  policyId: string;
  termId: string;
  /** Only a cancellation pending for this reason is withdrawn. */
  reasonId: string;
  summary: string;
}

export async function rescindCancellation(wiring: MoveWiring, principal: Principal, request: RescindRequest, options: DecisionOptions = {}): Promise<void> {
  const now = options.now ?? new Date();
  const { policy, terms } = await policyWithinReach(principal, { policyId: request.policyId });
  const term = terms.find((candidate) => candidate.id === request.termId);
  if (!term) throw new NotFoundError(`Policy term ${request.termId}`);
  const withdrawn = term.cancellationStatus === 'pending' && term.cancelReasonId === request.reasonId;
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
  };
  await runTransaction([...(withdrawn ? rescissionWrites(term) : []), ...(await contributedWrites(wiring, 'rescind', rescinded))], { label: `Policy ${policy.policyNumber}` });
}
