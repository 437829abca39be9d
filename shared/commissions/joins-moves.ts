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
import type { AreaPart, CancelledTerm, CommittedRevision, EndorsedRevision, ReinstatedTerm, RenewedTerm, TransactionWrite } from '../lifecycle/index.js';
import { clock } from '../platform/clock.js';
import { loadRevision, type RevisionSnapshot } from '../policies/index.js';
import type { CommissionRow, CommissionTerm, CommissionTransaction } from './model.js';
import { commissionCents, monthOf, scheduledRate } from './rules.js';
import { commissionRowPut, commissionTermCreate, commissionTermUpdate, getCommissionTerm, schedulesOf } from './store.js';

const part = (writes: TransactionWrite[]): AreaPart => ({ area: 'commissions', writes });

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

/** A new term's commission: its terms (the rate fixed for it) and its first row. */
async function newTermPart(
  term: { policyId: string; termId: string; policyNumber: string; agencyId?: string; namedInsuredContactIds: string[]; effectiveDate: string; writtenPremiumCents: number },
  snapshot: Pick<RevisionSnapshot, 'header' | 'risks'>,
  move: { transaction: 'New Business' | 'Renewal'; decisionDate: string; postedAt: string; overrideRate?: string },
): Promise<AreaPart> {
  if (!term.agencyId) return part([]);
  const rate = move.overrideRate ?? (await rateOf(term.agencyId, snapshot, move.transaction === 'Renewal' ? 'renewal' : 'new_business'));
  const commissionTerm: CommissionTerm = {
    policyId: term.policyId, termId: term.termId, policyNumber: term.policyNumber, agencyId: term.agencyId,
    insured: await insuredOf(term.namedInsuredContactIds), rate, overridden: move.overrideRate !== undefined, standingChargebackCents: 0, standingReturnPremiumCents: 0, version: 1,
  };
  // What the move records of it: the rate fixed for the term (issue answers it as the vendor's commission_rate).
  return { ...part([commissionTermCreate(commissionTerm), commissionRowPut(row(commissionTerm, { ...move, effectiveDate: term.effectiveDate, premiumCents: term.writtenPremiumCents }))]), preview: { commissionRate: rate } };
}

/** Issue: new business commission on the term's written premium, at the override given for this policy or the agency's schedule. */
export async function commissionsAtIssue(committed: CommittedRevision): Promise<AreaPart> {
  if (!committed.agencyId) return part([]);
  const snapshot = await loadRevision(committed.revisionId);
  if (!snapshot) return part([]);
  return newTermPart(committed, snapshot, {
    transaction: 'New Business', decisionDate: committed.commitDate, postedAt: clock.now().toISOString(),
    ...(committed.commissionOverrideRate !== undefined ? { overrideRate: committed.commissionOverrideRate } : {}),
  });
}

/** Renewal: renewal commission on the renewal term's written premium (nothing while held for review). */
export async function commissionsAtRenewal(renewed: RenewedTerm): Promise<AreaPart> {
  if (renewed.held || !renewed.agencyId) return part([]);
  return newTermPart(renewed, renewed.revision, { transaction: 'Renewal', decisionDate: renewed.decisionDate, postedAt: renewed.decidedAt });
}

/** An endorsement (or a reversal): commission on its additional premium, charged back on its return premium; a preview writes nothing. */
export async function commissionsAtEndorsement(endorsed: EndorsedRevision, mode: { preview: boolean }): Promise<AreaPart> {
  if (mode.preview || !endorsed.agencyId || endorsed.premiumChangeCents === 0) return part([]);
  const term = await getCommissionTerm(endorsed.termId);
  if (!term) return part([]);
  return part([commissionRowPut(row(term, { transaction: 'Endorsement', decisionDate: endorsed.commitDate, postedAt: endorsed.committedAt, effectiveDate: endorsed.revisionDate, premiumCents: endorsed.premiumChangeCents }))]);
}

/** A cancellation taking effect: the commission on its return premium charged back (a pending one changes nothing). */
export async function commissionsAtCancellation(cancelled: CancelledTerm): Promise<AreaPart> {
  if (cancelled.outcome !== 'cancelled' || !cancelled.agencyId) return part([]);
  const term = await getCommissionTerm(cancelled.termId);
  if (!term) return part([]);
  const chargeback = row(term, { transaction: 'Cancellation', decisionDate: cancelled.decisionDate, postedAt: cancelled.decidedAt, effectiveDate: cancelled.cancelDate, premiumCents: -cancelled.returnPremiumCents });
  return part([commissionRowPut(chargeback), commissionTermUpdate({ ...term, standingChargebackCents: chargeback.commissionCents, standingReturnPremiumCents: cancelled.returnPremiumCents })]);
}

/** A reinstatement: what the cancellation charged back is earned again. */
export async function commissionsAtReinstatement(reinstated: ReinstatedTerm): Promise<AreaPart> {
  if (!reinstated.agencyId) return part([]);
  const term = await getCommissionTerm(reinstated.termId);
  if (!term || term.standingChargebackCents === 0) return part([]);
  const restored = row(term, { transaction: 'Reinstatement', decisionDate: reinstated.decisionDate, postedAt: reinstated.decidedAt, effectiveDate: reinstated.reinstatementDate, premiumCents: term.standingReturnPremiumCents });
  return part([commissionRowPut({ ...restored, commissionCents: -term.standingChargebackCents }), commissionTermUpdate({ ...term, standingChargebackCents: 0, standingReturnPremiumCents: 0 })]);
}
