/**
 * The cancel move (cancel_policy, and the nightly job: pending for non-payment, and the
 * cancellation itself). With a pending date the term goes to cancellation pending: the term
 * alone records it (the one truth retrieve_policy, search and the nightly job read). Otherwise
 * it is cancelled with every side effect at once: a committed revision carrying reason and
 * date, the cancel date on the revision in force and later ones, and what the registered
 * contributions add (billing's Cancellation and Return Premium rows, documents' Notice of
 * Cancellation, the note), a renewal made of the term cancelled with it, or archived if still
 * held for review: ONE transaction, guarded by the records' versions, so a retry after
 * any failure starts again from a clean state. Everything is dated by the move's decision.
 */
import { randomUUID } from 'node:crypto';
import { clock } from '../platform/clock.js';
import { todayIso } from '../platform/dates.js';
import { refuseUnderMoratoriums } from '../moratoriums/index.js';
import { BusinessRuleError, NotFoundError } from '../platform/errors.js';
import { formatCents } from '../platform/money.js';
import type { Principal } from '../platform/principal.js';
import { runTransaction } from '../platform/transactions.js';
import { policyWithinReach, revisionHeaders, type TermRecord } from '../policies/index.js';
import { InvalidCancelDateError, type CancellationFigures, type CancelledTerm, type MoveReads } from './model.js';
import { joinedWrites, type Contribution } from './joining.js';
import { heldRenewalOf } from './held-renewal.js';

export interface CancelRequest {
  policyId: string;
  termId?: string;
  reasonId: string;
  cancelDate?: string;
  /** Takes precedence over cancelDate: the policy goes to cancellation pending. */
  cancelPendingDate?: string;
  /** The unpaid invoice a pending cancellation for non-payment stems from (the nightly job). */
  unpaidChargeId?: string | null;
  /** What the note records, when the move's own message is not it (the nightly job's words). */
  summary?: string;
}

export interface CancelOutcome {
  outcome: 'pending' | 'cancelled';
  policyNumber: string;
  cancelDate: string;
  returnPremiumCents: number;
  message: string;
}

/** Who decides a move and when: the caller now, or a nightly day (its noon). */
export interface DecisionOptions {
  now?: Date;
  decidedBy?: string;
}

export class PolicyNotCancellableError extends BusinessRuleError {}

/**
 * What the cancel move asks of the areas: their parts in the cancellation (billing's rows,
 * search, the Notice of Cancellation, the note, the event), and billing's cancel reasons and
 * return premium.
 */
export interface CancelWiring {
  cancel: readonly Contribution<CancelledTerm>[];
  reads: Pick<MoveReads, 'cancelReason' | 'cancellationFigures'>;
}


/**
 * A term cancelled after its renewal was made: the renewal term, not yet in force, is cancelled
 * with it, flat on its first day (everything it billed is returned), in the same transaction:
 * its own revision, account rows, notice and note. It would otherwise come into force, and bill,
 * for a policy that no longer exists. The renewal term keeps which term it was cancelled with:
 * reinstating that term reinstates it too (reinstate.ts), while a renewal cancelled on its own stays.
 */
async function renewalCancelledWithTerm(wiring: CancelWiring, context: { policy: Awaited<ReturnType<typeof policyWithinReach>>['policy']; terms: TermRecord[]; term: TermRecord; cancelled: CancelledTerm }) {
  const { policy, terms, term, cancelled } = context;
  if (term.renewal?.state !== 'committed' || term.renewal.inForce) return [];
  const renewalTerm = terms.find((candidate) => candidate.id === term.renewal!.termId);
  if (!renewalTerm || renewalTerm.cancellationStatus === 'cancelled') return [];
  const revisions = (await revisionHeaders(renewalTerm.revisionIds)).filter((revision) => revision.revisionState === 'committed');
  const base = revisions.at(-1);
  if (!base) return [];
  const cancelDate = renewalTerm.effectiveDate;
  const figures = await wiring.reads.cancellationFigures({ policyId: policy.id, termId: renewalTerm.id, revisionId: base.id, effectiveDate: renewalTerm.effectiveDate, expirationDate: renewalTerm.expirationDate, cancelDate, decisionDate: cancelled.decisionDate });
  const newRevisionId = randomUUID();
  const renewalCancelled: CancelledTerm = {
    ...cancelled,
    termId: renewalTerm.id,
    termEffectiveDate: renewalTerm.effectiveDate,
    termExpirationDate: renewalTerm.expirationDate,
    revisionId: newRevisionId,
    inForceRevisionId: base.id,
    cancelDate,
    returnPremiumCents: figures.returnPremiumCents,
    yieldsToPending: false,
    cancelledWithTermId: term.id,
    decidedAt: new Date(Date.parse(cancelled.decidedAt) + 10).toISOString(),
    summary: `Renewal term ${renewalTerm.effectiveDate} to ${renewalTerm.expirationDate} cancelled with the term it renews (flat); return premium ${formatCents(figures.returnPremiumCents)}`,
    cancellationRecords: { term: renewalTerm, inForceRevision: base, committed: revisions },
  };
  return joinedWrites(wiring.cancel, renewalCancelled);
}

/**
 * Where a return premium was partly still to be billed, what the account gets is not the return
 * premium: the message says so with the Return Premium row's own figures, so the two never differ.
 */
function unbilledPart(figures: CancellationFigures): string {
  if (figures.unbilledCents === 0) return '';
  const voided = `the installments not yet billed (${formatCents(figures.unbilledCents)}) are voided`;
  if (figures.balanceChangeCents < 0) return `; ${voided} and ${formatCents(-figures.balanceChangeCents)} is credited`;
  if (figures.balanceChangeCents > 0) return `; ${voided} and ${formatCents(figures.balanceChangeCents)} of earned premium is due`;
  return `; ${voided}`;
}

export async function cancelPolicy(wiring: CancelWiring, principal: Principal, request: CancelRequest, options: DecisionOptions = {}): Promise<CancelOutcome> {
  const now = options.now ?? clock.now();
  const decisionDate = todayIso(now);
  const decidedBy = options.decidedBy ?? principal.contactId;
  const reason = await wiring.reads.cancelReason(request.reasonId);
  if (!reason) throw new BusinessRuleError(`cancel_reason_id: ${request.reasonId.slice(0, 40)} is not a cancel reason`);
  const { policy, terms } = await policyWithinReach(principal, { policyId: request.policyId });
  const term = terms.find((candidate) => candidate.id === (request.termId ?? policy.activeTermId));
  if (!term) throw new NotFoundError(`Policy term ${request.termId ?? ''}`.trim());
  const revisions = await revisionHeaders(term.revisionIds);
  const committed = revisions.filter((revision) => revision.revisionState === 'committed');
  const base = committed.find((revision) => revision.id === policy.activeRevisionId) ?? committed.at(-1);
  if (!base) throw new PolicyNotCancellableError(`Policy ${policy.policyNumber} has not been issued; only an issued policy can be cancelled`);
  if (term.cancellationStatus === 'cancelled') throw new PolicyNotCancellableError(`Policy ${policy.policyNumber} is already cancelled`);
  await refuseUnderMoratoriums(principal, { block: 'cancellation', operation: 'cancellation', revision: base.id, cancelReason: reason.name, at: now });

  const outcome = request.cancelPendingDate ? 'pending' : 'cancelled';
  const cancelDate = (request.cancelPendingDate ?? request.cancelDate)!;
  if (cancelDate < term.effectiveDate || cancelDate > term.expirationDate) throw new InvalidCancelDateError(cancelDate, term.effectiveDate, term.expirationDate);
  const newRevisionId = randomUUID();

  let returnPremiumCents = 0;
  let message: string;
  if (outcome === 'cancelled') {
    const figures = await wiring.reads.cancellationFigures({ policyId: policy.id, termId: term.id, revisionId: base.id, effectiveDate: term.effectiveDate, expirationDate: term.expirationDate, cancelDate, decisionDate });
    returnPremiumCents = figures.returnPremiumCents;
    message = `Policy ${policy.policyNumber} cancelled effective ${cancelDate} (${reason.name}); return premium ${formatCents(returnPremiumCents)}${figures.flat ? ' (flat cancellation)' : ''}${unbilledPart(figures)}`;
  } else {
    message = `Policy ${policy.policyNumber} is pending cancellation effective ${cancelDate} (${reason.name})`;
  }

  // The term holds one pending cancellation: the nightly job's finding of an unpaid invoice does not replace one set for
  // another reason (billing keeps its finding on the account, and cancels for non-payment on its own date all the same).
  const yieldsToPending = outcome === 'pending' && request.unpaidChargeId !== undefined && term.cancellationStatus === 'pending' && term.cancelReasonId !== reason.id;
  // A renewal still held for review can never be committed for a cancelled term: it is archived with the cancellation, as at expiry.
  const held = outcome === 'cancelled' && term.renewal?.state === 'held' ? await heldRenewalOf(term, terms, (await revisionHeaders([policy.activeRevisionId]))[0] ?? base) : undefined;
  const cancelled: CancelledTerm = {
    decisionDate,
    decidedAt: now.toISOString(),
    decidedBy,
    policyId: policy.id,
    policyNumber: policy.policyNumber,
    termId: term.id,
    termEffectiveDate: term.effectiveDate,
    termExpirationDate: term.expirationDate,
    revisionId: outcome === 'cancelled' ? newRevisionId : base.id,
    inForceRevisionId: base.id,
    outcome,
    cancelDate,
    reasonId: reason.id,
    reason: reason.name,
    returnPremiumCents,
    ...(request.unpaidChargeId !== undefined ? { unpaidChargeId: request.unpaidChargeId } : {}),
    ...(yieldsToPending ? { yieldsToPending } : {}),
    ...(held ? { reviewStateRestored: held.reviewStateInForce } : {}),
    ...(policy.agencyId ? { agencyId: policy.agencyId } : {}),
    contactIds: [...policy.contactIds],
    namedInsuredContactIds: [...policy.contacts.namedInsuredIds],
    summary: request.summary ?? message,
    ...(yieldsToPending ? {} : { cancellationRecords: { term, inForceRevision: base, committed, ...(held ? { heldRenewal: held } : {}) } }),
  };
  const writes = [
    ...(await joinedWrites(wiring.cancel, cancelled)),
    ...(outcome === 'cancelled' ? await renewalCancelledWithTerm(wiring, { policy, terms, term, cancelled }) : []),
  ];
  await runTransaction(writes, { label: `Policy ${policy.policyNumber}` });
  return { outcome, policyNumber: policy.policyNumber, cancelDate, returnPremiumCents, message };
}
