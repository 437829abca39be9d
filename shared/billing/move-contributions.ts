/**
 * Billing's part in a policy's moves, registered once in shared/moves.ts: the account and
 * invoices at issue (service.ts, billingAtIssue), the Cancellation and Return Premium rows
 * of a cancellation, the non-payment state the nightly job decided, and what the moves read
 * of billing (cancel reasons, a cancellation's figures). Rows are dated by the move's
 * decision, so a nightly day re-run later writes what it would have written that day.
 */
import type { CancellationFigures, CancelledTerm, MoveReads, RescindedCancellation, TransactionWrite } from '../lifecycle/index.js';
import { sum } from '../platform/money.js';
import { cancellationEntry, returnPremiumEntry } from './account-history.js';
import { cancellationBalanceChange, returnPremium } from './cancellation.js';
import type { AccountEntry, BillingAccount } from './model.js';
import { billableItemsOfRevision, billingSettings } from './service.js';
import { loadAccount, postingWrites } from './store.js';
import { randomUUID } from 'node:crypto';

/** What the term's invoices billed, by kind: premium, and fees (installment fees are charges of their own). */
export function billedOnTerm(entries: readonly AccountEntry[]): { premiumCents: number; feesCents: number } {
  const invoices = entries.filter((entry) => entry.type === 'Invoice' && entry.schedule);
  return {
    premiumCents: sum(invoices.map((entry) => entry.schedule!.premiumCents)),
    feesCents: sum(invoices.map((entry) => entry.schedule!.customFeesCents)),
  };
}

async function figuresOf(question: { revisionId: string; effectiveDate: string; expirationDate: string; cancelDate: string }) {
  const settings = await billingSettings();
  const items = await billableItemsOfRevision(question.revisionId);
  return returnPremium({ effectiveDate: question.effectiveDate, expirationDate: question.expirationDate, cancelDate: question.cancelDate, items }, settings.cancellation, settings.minimumEarnedPremiumCents);
}

/** What the moves read of billing. */
export const billingReads: MoveReads = {
  async cancelReason(reasonId) {
    const reason = (await billingSettings()).cancelReasons.find((candidate) => candidate.id === reasonId);
    return reason ? { id: reason.id, name: reason.name } : undefined;
  },
  async cancellationFigures(question): Promise<CancellationFigures> {
    const figures = await figuresOf(question);
    return { returnPremiumCents: figures.returnedPremiumCents, flat: figures.flat };
  },
  async billingScheduleOf(policyId, termId) {
    return (await loadAccount(policyId, termId))?.account.scheduleId;
  },
};

async function accountOf(policyId: string, termId: string, policyNumber: string) {
  const loaded = await loadAccount(policyId, termId);
  if (!loaded) throw new Error(`Policy ${policyNumber} has no billing account for term ${termId}`);
  return loaded;
}

/**
 * A cancellation's postings. Pending: the account is watched by the nightly job from now on
 * (the term holds the date and the reason), and a pending for non-payment remembers the
 * unpaid invoice it stems from. Taking effect: installments not yet billed never are (their
 * invoices are voided), and only what was billed is set against what stays earned.
 */
export async function billingAtCancellation(cancelled: CancelledTerm): Promise<TransactionWrite[]> {
  const { account, entries } = await accountOf(cancelled.policyId, cancelled.termId, cancelled.policyNumber);
  const context = (offset: number) => ({ id: randomUUID(), postedAt: new Date(Date.parse(cancelled.decidedAt) + offset).toISOString(), generatedBy: cancelled.decidedBy, policyStatus: account.policyStatus });
  if (cancelled.outcome === 'pending') {
    const set: Partial<BillingAccount> = { nightlyWatch: true };
    if (cancelled.unpaidChargeId !== undefined) {
      set.nonPayment = { status: 'cancellation_pending', cancelDate: cancelled.cancelDate, chargeId: cancelled.unpaidChargeId };
      set.nightlyDate = cancelled.decisionDate;
    }
    return postingWrites({ account, entries: [], guardVersion: true, set });
  }
  const figures = await figuresOf({ revisionId: cancelled.inForceRevisionId, effectiveDate: cancelled.termEffectiveDate, expirationDate: cancelled.termExpirationDate, cancelDate: cancelled.cancelDate });
  const unbilled = entries.filter((entry) => entry.type === 'Invoice' && (entry.billDate ?? entry.date) > cancelled.decisionDate);
  const change = cancellationBalanceChange(figures, billedOnTerm(entries.filter((entry) => !unbilled.includes(entry))));
  const rows = [
    cancellationEntry(context(0), { date: cancelled.decisionDate, cancelDate: cancelled.cancelDate, reason: cancelled.reason }),
    returnPremiumEntry(context(1), { date: cancelled.decisionDate, cancelDate: cancelled.cancelDate, amountCents: change, returnedPremiumCents: figures.returnedPremiumCents }),
  ];
  return postingWrites({
    account,
    entries: rows,
    guardVersion: true,
    balanceAdjustmentCents: -sum(unbilled.map((entry) => entry.amountCents)),
    set: {
      policyStatus: 'Cancelled',
      nightlyWatch: false,
      nonPayment: { status: 'cancelled', cancelDate: cancelled.cancelDate, chargeId: account.nonPayment.chargeId },
      ...(unbilled.length ? { voidedEntryIds: [...(account.voidedEntryIds ?? []), ...unbilled.map((entry) => entry.id)] } : {}),
    },
  });
}

/**
 * A pending cancellation for non-payment withdrawn: the account is current again as of the
 * decision's day; the nightly job keeps watching it only while another cancellation is pending.
 */
export async function billingAtRescission(rescinded: RescindedCancellation): Promise<TransactionWrite[]> {
  const { account } = await accountOf(rescinded.policyId, rescinded.termId, rescinded.policyNumber);
  return postingWrites({
    account,
    entries: [],
    guardVersion: true,
    set: { nonPayment: { status: 'current', cancelDate: null, chargeId: null }, nightlyDate: rescinded.decisionDate, nightlyWatch: rescinded.otherPendingRemains },
  });
}
