/**
 * Commissions' part in a policy's moves, listed per move in shared/moves/: commission follows
 * written premium, in the move's own transaction. Issue and renewal earn it on the term's written
 * premium (at the rate they fix for the term), an endorsement on its additional or return
 * premium, a cancellation charges it back on its return premium (billing's figure, carried by the
 * move's facts), a reinstatement restores what the cancellation charged back. Fees and taxes
 * never earn commission. A policy without an agency earns none.
 */
import { randomUUID } from 'node:crypto';
import { getContactSummaries } from '../contacts/index.js';
import type { PostedPayment } from '../billing/index.js';
import { commissionBasisOf, getCarrierSettings } from '../catalog/index.js';
import type { AreaPart, CancelledTerm, CommittedRevision, EndorsedRevision, ReadsAhead, ReinstatedTerm, RenewedTerm, RewrittenPolicy, CancellationAhead, TermAhead, TransactionWrite } from '../lifecycle/index.js';
import { clock } from '../platform/clock.js';
import { loadRevision, type RevisionSnapshot } from '../policies/index.js';
import type { CommissionRow, CommissionTerm, CommissionTransaction } from './model.js';
import { collectedPremiumCents, commissionCents, monthOf, scheduledRate } from './rules.js';
import { booksOfCommission, groupOf } from '../books/index.js';
import { commissionRowPut, commissionTermCreate, commissionTermUpdate, getCommissionTerm, schedulesOf } from './store.js';

const part = (writes: TransactionWrite[]): AreaPart => ({ area: 'commissions', writes });

/** A commission row and its entry in the books' journal (Commission expense / Commission payable), in the same transaction. */
function rowWrites(term: Pick<CommissionTerm, 'booksGroup'>, commission: CommissionRow): TransactionWrite[] {
  return [
    commissionRowPut(commission),
    ...(commission.commissionCents
      ? booksOfCommission({ policyId: commission.policyId, group: term.booksGroup ?? null, date: commission.postedAt.slice(0, 10), commissionCents: commission.commissionCents })
      : []),
  ];
}

async function insuredOf(contactIds: readonly string[]): Promise<string> {
  if (!contactIds.length) return '';
  const summaries = await getContactSummaries(contactIds);
  return contactIds.map((id) => summaries.get(id)?.name).filter(Boolean).join(', ');
}

/** The agency's rate for the revision's line and its primary property's state. */
async function rateOf(agencyId: string, snapshot: Pick<RevisionSnapshot, 'header' | 'risks'>, kind: 'new_business' | 'renewal'): Promise<string> {
  const primary = snapshot.risks.find((risk) => risk.primary) ?? snapshot.risks[0];
  return scheduledRate(await schedulesOf(agencyId), snapshot.header.lineId, primary?.address_state ?? null, kind);
}

function row(term: CommissionTerm, move: { transaction: CommissionTransaction; decisionDate: string; postedAt: string; effectiveDate: string; premiumCents: number }): CommissionRow {
  return {
    rowId: randomUUID(),
    agencyId: term.agencyId,
    month: monthOf(move.decisionDate),
    postedAt: move.postedAt,
    policyId: term.policyId,
    termId: term.termId,
    policyNumber: term.policyNumber,
    insured: term.insured,
    transaction: move.transaction,
    effectiveDate: move.effectiveDate,
    premiumCents: move.premiumCents,
    rate: term.rate,
    commissionCents: commissionCents(move.premiumCents, term.rate),
  };
}

/** The carrier's basis for commission (its setting `commissionBasis`): written premium unless it says collected. */
async function commissionBasis(): Promise<'written' | 'collected'> {
  return commissionBasisOf(await getCarrierSettings());
}

/**
 * A new term's commission: its terms (the rate and basis fixed for it) and its first row. On the
 * collected basis nothing is earned yet: the term keeps what it charges, and payments earn it.
 */
async function newTermPart(
  term: { policyId: string; termId: string; policyNumber: string; agencyId?: string; namedInsuredContactIds: string[]; effectiveDate: string; writtenPremiumCents: number; writtenFeeCents?: number },
  snapshot: Pick<RevisionSnapshot, 'header' | 'risks'>,
  move: { transaction: 'New Business' | 'Renewal' | 'Rewrite'; kind: 'new_business' | 'renewal'; decisionDate: string; postedAt: string; overrideRate?: string },
): Promise<AreaPart> {
  if (!term.agencyId) return part([]);
  const [rate, basis] = await Promise.all([move.overrideRate ?? rateOf(term.agencyId, snapshot, move.kind), commissionBasis()]);
  const commissionTerm: CommissionTerm = {
    policyId: term.policyId, termId: term.termId, policyNumber: term.policyNumber, agencyId: term.agencyId,
    insured: await insuredOf(term.namedInsuredContactIds), rate, overridden: move.overrideRate !== undefined, standingChargebackCents: 0, standingReturnPremiumCents: 0,
    kind: move.kind, basis, booksGroup: groupOf(snapshot),
    ...(basis === 'collected' ? { writtenPremiumCents: term.writtenPremiumCents, chargesCents: term.writtenPremiumCents + (term.writtenFeeCents ?? 0), collectedCents: 0, earnedCents: 0 } : {}),
    version: 1,
  };
  const first = basis === 'collected' ? [] : rowWrites(commissionTerm, row(commissionTerm, { ...move, effectiveDate: term.effectiveDate, premiumCents: term.writtenPremiumCents }));
  // What the move records of it: the rate fixed for the term (issue answers it as the vendor's commission_rate).
  return { ...part([commissionTermCreate(commissionTerm), ...first]), preview: { commissionRate: rate } };
}

/**
 * A move of a term paid on the collected basis: the term's figures moved by it, the commission
 * earned on the premium collected worked out again, and a row of the difference.
 */
function collectedStep(
  term: CommissionTerm,
  change: { premiumCents?: number; chargesCents?: number; collectedCents?: number },
  move: { transaction: CommissionTransaction; decisionDate: string; postedAt: string; effectiveDate: string },
): { rows: CommissionRow[]; term: CommissionTerm; earnedChangeCents: number } {
  const before = { writtenPremiumCents: term.writtenPremiumCents ?? 0, chargesCents: term.chargesCents ?? 0, collectedCents: term.collectedCents ?? 0 };
  const after = {
    writtenPremiumCents: before.writtenPremiumCents + (change.premiumCents ?? 0),
    chargesCents: before.chargesCents + (change.chargesCents ?? 0),
    collectedCents: before.collectedCents + (change.collectedCents ?? 0),
  };
  const collectedBefore = collectedPremiumCents(before);
  const collectedAfter = collectedPremiumCents(after);
  const earned = commissionCents(collectedAfter, term.rate);
  const earnedChangeCents = earned - (term.earnedCents ?? 0);
  const premiumCents = move.transaction === 'Collection' ? collectedAfter - collectedBefore : (change.premiumCents ?? 0);
  const rows = earnedChangeCents !== 0 || premiumCents !== 0 ? [{ ...row(term, { ...move, premiumCents }), commissionCents: earnedChangeCents }] : [];
  return { rows, term: { ...term, ...after, earnedCents: earned }, earnedChangeCents };
}

/** Issue: new business commission on the term's written premium, at the override given for this policy or the agency's schedule. */
export async function commissionsAtIssue(committed: CommittedRevision): Promise<AreaPart> {
  if (!committed.agencyId) return part([]);
  const snapshot = committed.asRead?.revision ?? (await loadRevision(committed.revisionId));
  if (!snapshot) return part([]);
  return newTermPart(committed, snapshot, {
    transaction: 'New Business', kind: 'new_business', decisionDate: committed.commitDate, postedAt: clock.now().toISOString(),
    ...(committed.commissionOverrideRate !== undefined ? { overrideRate: committed.commissionOverrideRate } : {}),
  });
}

/** Renewal: renewal commission on the renewal term's written premium (nothing while held for review). */
export async function commissionsAtRenewal(renewed: RenewedTerm): Promise<AreaPart> {
  if (renewed.held || !renewed.agencyId) return part([]);
  return newTermPart(renewed, renewed.revision, { transaction: 'Renewal', kind: 'renewal', decisionDate: renewed.decisionDate, postedAt: renewed.decidedAt });
}

/** A term's commission terms, from the reads its move began (readAhead) when it has them. */
function commissionTermAsRead(termId: string, reads: ReadsAhead | undefined) {
  return reads ? reads.once(`commissions:term ${termId}`, () => getCommissionTerm(termId)) : getCommissionTerm(termId);
}

/** What commissions' part in an endorsement reads (the term's commission terms, when it has an agency), begun beside the move's own reads. */
export function commissionsReadAheadAtEndorsement(term: TermAhead, reads: ReadsAhead): void {
  if (term.agencyId) void commissionTermAsRead(term.termId, reads);
}

/** An endorsement (or a reversal): commission on its additional premium, charged back on its return premium; a preview writes nothing. */
export async function commissionsAtEndorsement(endorsed: EndorsedRevision, mode: { preview: boolean }): Promise<AreaPart> {
  if (mode.preview || !endorsed.agencyId || endorsed.premiumChangeCents === 0) return part([]);
  const term = await commissionTermAsRead(endorsed.termId, endorsed.reads);
  if (!term) return part([]);
  if (term.basis === 'collected') {
    const step = collectedStep(term, { premiumCents: endorsed.premiumChangeCents, chargesCents: endorsed.premiumChangeCents + endorsed.feeChangeCents }, { transaction: 'Endorsement', decisionDate: endorsed.commitDate, postedAt: endorsed.committedAt, effectiveDate: endorsed.revisionDate });
    return part([...step.rows.flatMap((each) => rowWrites(step.term, each)), commissionTermUpdate(step.term)]);
  }
  return part(rowWrites(term, row(term, { transaction: 'Endorsement', decisionDate: endorsed.commitDate, postedAt: endorsed.committedAt, effectiveDate: endorsed.revisionDate, premiumCents: endorsed.premiumChangeCents })));
}

/** What commissions' part in a cancellation taking effect reads (the term's commission terms, when it has an agency), begun beside the move's own reads. */
export function commissionsReadAheadAtCancellation(term: CancellationAhead, reads: ReadsAhead): void {
  if (term.outcome === 'cancelled' && term.agencyId) void commissionTermAsRead(term.termId, reads);
}

/** A cancellation taking effect: the commission on its return premium charged back (a pending one changes nothing). */
export async function commissionsAtCancellation(cancelled: CancelledTerm): Promise<AreaPart> {
  if (cancelled.outcome !== 'cancelled' || !cancelled.agencyId) return part([]);
  const term = await commissionTermAsRead(cancelled.termId, cancelled.asRead?.reads);
  if (!term) return part([]);
  return part(chargebackWrites(term, cancelled));
}

/** A cancellation's chargeback on its return premium (on the collected basis: what the premium left to collect no longer earns). */
function chargebackWrites(term: CommissionTerm, cancelled: CancelledTerm): TransactionWrite[] {
  if (term.basis === 'collected') {
    const step = collectedStep(term, { premiumCents: -cancelled.returnPremiumCents, chargesCents: -cancelled.returnPremiumCents }, { transaction: 'Cancellation', decisionDate: cancelled.decisionDate, postedAt: cancelled.decidedAt, effectiveDate: cancelled.cancelDate });
    return [...step.rows.flatMap((each) => rowWrites(step.term, each)), commissionTermUpdate({ ...step.term, standingChargebackCents: step.earnedChangeCents, standingReturnPremiumCents: cancelled.returnPremiumCents })];
  }
  const chargeback = row(term, { transaction: 'Cancellation', decisionDate: cancelled.decisionDate, postedAt: cancelled.decidedAt, effectiveDate: cancelled.cancelDate, premiumCents: -cancelled.returnPremiumCents });
  return [...rowWrites(term, chargeback), commissionTermUpdate({ ...term, standingChargebackCents: chargeback.commissionCents, standingReturnPremiumCents: cancelled.returnPremiumCents })];
}

/** A reinstatement: what the cancellation charged back is earned again. */
export async function commissionsAtReinstatement(reinstated: ReinstatedTerm): Promise<AreaPart> {
  if (!reinstated.agencyId) return part([]);
  const term = await getCommissionTerm(reinstated.termId);
  if (!term || (term.standingChargebackCents === 0 && term.standingReturnPremiumCents === 0)) return part([]);
  if (term.basis === 'collected') {
    const step = collectedStep(term, { premiumCents: term.standingReturnPremiumCents, chargesCents: term.standingReturnPremiumCents }, { transaction: 'Reinstatement', decisionDate: reinstated.decisionDate, postedAt: reinstated.decidedAt, effectiveDate: reinstated.reinstatementDate });
    return part([...step.rows.flatMap((each) => rowWrites(step.term, each)), commissionTermUpdate({ ...step.term, standingChargebackCents: 0, standingReturnPremiumCents: 0 })]);
  }
  const restored = row(term, { transaction: 'Reinstatement', decisionDate: reinstated.decisionDate, postedAt: reinstated.decidedAt, effectiveDate: reinstated.reinstatementDate, premiumCents: term.standingReturnPremiumCents });
  return part([...rowWrites(term, { ...restored, commissionCents: -term.standingChargebackCents }), commissionTermUpdate({ ...term, standingChargebackCents: 0, standingReturnPremiumCents: 0 })]);
}

/**
 * A payment applied to a term paid on the collected basis: the commission its share of premium
 * earns, a Collection row in the payment's transaction (nothing on the written basis: commission
 * was earned when written).
 */
export async function commissionsAtCollection(payment: PostedPayment): Promise<TransactionWrite[]> {
  if (!payment.agencyId) return [];
  const term = await getCommissionTerm(payment.termId);
  if (!term || term.basis !== 'collected') return [];
  const step = collectedStep(term, { collectedCents: payment.amountCents }, { transaction: 'Collection', decisionDate: payment.date, postedAt: payment.postedAt, effectiveDate: payment.date });
  return [...step.rows.flatMap((each) => rowWrites(step.term, each)), commissionTermUpdate(step.term)];
}

/**
 * A rewrite: the old term's commission charged back on the return premium its cancellation
 * (reason Rewritten) transferred, and the new term's commission on its written premium, as a
 * Rewrite row at the rate that fits it: a new term continues the policy as a renewal would
 * (renewal rate); a rewrite of the term in force keeps the old term's kind (and the override given
 * for the policy). A preview writes nothing.
 */
export async function commissionsAtRewrite(rewritten: RewrittenPolicy, mode: { preview: boolean } = { preview: false }): Promise<AreaPart> {
  if (mode.preview || !rewritten.agencyId) return part([]);
  const old = await getCommissionTerm(rewritten.fromTermId);
  const writes: TransactionWrite[] = rewritten.cancelled && old && rewritten.cancelled.outcome === 'cancelled' ? chargebackWrites(old, rewritten.cancelled) : [];
  const kind = rewritten.rewriteType === 'new_term' ? 'renewal' : (old?.kind ?? 'new_business');
  const opened = await newTermPart(
    { ...rewritten.committed, agencyId: rewritten.committed.agencyId ?? rewritten.agencyId },
    rewritten.revision,
    { transaction: 'Rewrite', kind, decisionDate: rewritten.decisionDate, postedAt: new Date(Date.parse(rewritten.decidedAt) + 20).toISOString(), ...(old?.overridden && rewritten.rewriteType !== 'new_term' ? { overrideRate: old.rate } : {}) },
  );
  return part([...writes, ...opened.writes]);
}
