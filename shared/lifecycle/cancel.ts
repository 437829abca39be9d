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
import { readMoratoriumsFor, refuseUnderMoratoriums } from '../moratoriums/index.js';
import { BusinessRuleError, NotFoundError } from '../platform/errors.js';
import { formatCents } from '../platform/money.js';
import type { Principal } from '../platform/principal.js';
import { runTransaction } from '../platform/transactions.js';
import { policyWithinReach, revisionHeaders, termCommittedRevisions, type PolicyRecord, type RevisionSnapshot, type TermRecord } from '../policies/index.js';
import { InvalidCancelDateError, type CancellationFigures, type CancelledTerm, type MoveReads, type CancellationAhead, type TermAsRead } from './model.js';
import { joinedWrites, readsAhead, type Contribution, type ReadsAhead } from './joining.js';
import { heldRenewalOf } from './held-renewal.js';
import { moduleOnFirstUse } from '../platform/modules-on-first-use.js';

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
  /** What the parts read of a term (billing's account, the books' earning, the commission terms), begun beside the move's own read of it rather than after the move decided. */
  readAhead?: readonly ((term: CancellationAhead, reads: ReadsAhead) => void)[];
}

/**
 * Everything the move and its parts read of a term, begun at once: the term's committed
 * revisions with their parts (the move's own read: the revision in force, those it marks, the
 * return premium over each) beside each part's read ahead. A term's reads wait for nothing but
 * the policy's.
 */
function termRead(wiring: CancelWiring, policy: PolicyRecord, term: TermRecord, outcome: CancelledTerm['outcome'], reads: ReadsAhead): Promise<RevisionSnapshot[]> {
  for (const begin of wiring.readAhead ?? []) begin({ policyId: policy.id, termId: term.id, outcome, agencyId: policy.agencyId ?? undefined }, reads);
  const revisions = termCommittedRevisions(term);
  revisions.catch(() => undefined);
  return revisions;
}

/** The renewal term a cancellation of `term` cancels with it: made, not yet in force, not cancelled on its own. */
function renewalCancelledWith(term: TermRecord, terms: readonly TermRecord[]): TermRecord | undefined {
  if (term.renewal?.state !== 'committed' || term.renewal.inForce) return undefined;
  const renewalTerm = terms.find((candidate) => candidate.id === term.renewal!.termId);
  return renewalTerm && renewalTerm.cancellationStatus !== 'cancelled' ? renewalTerm : undefined;
}


/** A renewal cancelled with its term (renewal-cancellation.ts): a path few cancellations take, loaded on its first use. */
const renewalCancellation = /* @__PURE__ */ moduleOnFirstUse<typeof import('./renewal-cancellation.js')>(new URL('./renewal-cancellation.mjs', import.meta.url), new URL('./renewal-cancellation.ts', import.meta.url));

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
  const moratoriums = readMoratoriumsFor({ block: 'cancellation', cancelReason: reason.name });
  const { policy, terms } = await policyWithinReach(principal, { policyId: request.policyId });
  const term = terms.find((candidate) => candidate.id === (request.termId ?? policy.activeTermId));
  if (!term) throw new NotFoundError(`Policy term ${request.termId ?? ''}`.trim());
  const outcome = request.cancelPendingDate ? 'pending' : 'cancelled';

  // One round of reads: the term's committed revisions and what every part needs of it, and of a renewal cancelled with it.
  const reads = readsAhead();
  const committedRead = termRead(wiring, policy, term, outcome, reads);
  const renewalTerm = outcome === 'cancelled' ? renewalCancelledWith(term, terms) : undefined;
  const renewal = renewalTerm ? { term: renewalTerm, revisions: termRead(wiring, policy, renewalTerm, 'cancelled', reads) } : undefined;

  const revisions = await committedRead;
  const committed = revisions.map((snapshot) => snapshot.header);
  const inForce = revisions.find((snapshot) => snapshot.header.id === policy.activeRevisionId) ?? revisions.at(-1);
  if (!inForce) throw new PolicyNotCancellableError(`Policy ${policy.policyNumber} has not been issued; only an issued policy can be cancelled`);
  const base = inForce.header;
  if (term.cancellationStatus === 'cancelled') throw new PolicyNotCancellableError(`Policy ${policy.policyNumber} is already cancelled`);
  await refuseUnderMoratoriums(principal, { block: 'cancellation', operation: 'cancellation', revision: inForce, cancelReason: reason.name, at: now, ...(moratoriums ? { moratoriums } : {}) });

  const cancelDate = (request.cancelPendingDate ?? request.cancelDate)!;
  if (cancelDate < term.effectiveDate || cancelDate > term.expirationDate) throw new InvalidCancelDateError(cancelDate, term.effectiveDate, term.expirationDate);
  const newRevisionId = randomUUID();
  const asRead: TermAsRead = { term, revisions, reads };

  let returnPremiumCents = 0;
  let message: string;
  if (outcome === 'cancelled') {
    const figures = await wiring.reads.cancellationFigures({ policyId: policy.id, termId: term.id, revisionId: base.id, effectiveDate: term.effectiveDate, expirationDate: term.expirationDate, cancelDate, decisionDate, asRead });
    returnPremiumCents = figures.returnPremiumCents;
    message = `Policy ${policy.policyNumber} cancelled effective ${cancelDate} (${reason.name}); return premium ${formatCents(returnPremiumCents)}${figures.flat ? ' (flat cancellation)' : ''}${unbilledPart(figures)}`;
  } else {
    message = `Policy ${policy.policyNumber} is pending cancellation effective ${cancelDate} (${reason.name})`;
  }

  // The term holds one pending cancellation: the nightly job's finding of an unpaid invoice does not replace one set for
  // another reason (billing keeps its finding on the account, and cancels for non-payment on its own date all the same).
  const yieldsToPending = outcome === 'pending' && request.unpaidChargeId !== undefined && term.cancellationStatus === 'pending' && term.cancelReasonId !== reason.id;
  // A renewal still held for review can never be committed for a cancelled term: it is archived with the cancellation, as at expiry.
  // (Read after the term's revisions: a held renewal is archived with a cancellation seldom.)
  const held = outcome === 'cancelled' && term.renewal?.state === 'held' ? await heldRenewalOf(term, terms, (await revisionHeaders([policy.activeRevisionId]))[0] ?? base) : undefined;
  const cancelled: CancelledTerm & { asRead: NonNullable<CancelledTerm['asRead']> } = {
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
    asRead: { ...asRead, policy },
    ...(yieldsToPending ? {} : { cancellationRecords: { term, inForceRevision: base, committed, ...(held ? { heldRenewal: held } : {}) } }),
  };
  const [own, withTerm] = await Promise.all([joinedWrites(wiring.cancel, cancelled), renewal ? renewalCancellation().then((module) => module.renewalCancelledWithTerm(wiring, { term, renewal, cancelled })) : []]);
  await runTransaction([...own, ...withTerm], { label: `Policy ${policy.policyNumber}` });
  return { outcome, policyNumber: policy.policyNumber, cancelDate, returnPremiumCents, message };
}
