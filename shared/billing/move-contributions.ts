/**
 * Billing's part in a policy's moves, registered once in shared/moves.ts: the account and
 * invoices at issue (service.ts, billingAtIssue), the Cancellation and Return Premium rows
 * of a cancellation, the non-payment state the nightly job decided, and what the moves read
 * of billing (cancel reasons, a cancellation's figures). Rows are dated by the move's
 * decision, so a nightly day re-run later writes what it would have written that day.
 */
import type { CancellationFigures, CancelledTerm, MoveReads, ReinstatedTerm, RescindedCancellation, TransactionWrite } from '../lifecycle/index.js';
import { addDays } from '../platform/dates.js';
import { formatCents, sum } from '../platform/money.js';
import { accountEntry, cancellationEntry, returnPremiumEntry } from './account-history.js';
import { cancellationBalanceChange, lapsePremiumCents, returnPremium } from './cancellation.js';
import type { AccountEntry, BillingAccount } from './model.js';
import { billableItemsOfRevision, billingSettings } from './installment-plans.js';
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
    return reason ? { id: reason.id, name: reason.name, reinstatable: reason.reinstatable !== false } : undefined;
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
  const loaded = await accountOf(cancelled.policyId, cancelled.termId, cancelled.policyNumber);
  const { account, entries } = loaded;
  const context = (offset: number) => ({ id: randomUUID(), postedAt: new Date(Date.parse(cancelled.decidedAt) + offset).toISOString(), generatedBy: cancelled.decidedBy, policyStatus: account.policyStatus });
  if (cancelled.outcome === 'pending') {
    const set: Partial<BillingAccount> = { nightlyWatch: true };
    if (cancelled.unpaidChargeId !== undefined) {
      set.nonPayment = { ...excusedOf(account), status: 'cancellation_pending', cancelDate: cancelled.cancelDate, chargeId: cancelled.unpaidChargeId };
      set.nightlyDate = cancelled.decisionDate;
    }
    return postingWrites({ account, prior: loaded, entries: [], guardVersion: true, set });
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
    prior: loaded,
    entries: rows,
    guardVersion: true,
    balanceAdjustmentCents: -sum(unbilled.map((entry) => entry.amountCents)),
    set: {
      policyStatus: 'Cancelled',
      nightlyWatch: false,
      nonPayment: { ...excusedOf(account), status: 'cancelled', cancelDate: cancelled.cancelDate, chargeId: account.nonPayment.chargeId },
      ...(unbilled.length ? { voidedEntryIds: [...(account.voidedEntryIds ?? []), ...unbilled.map((entry) => entry.id)] } : {}),
    },
  });
}

/** The charges an account's non-payment state has excused, carried into its next state. */
function excusedOf(account: BillingAccount): { excusedChargeIds?: string[] } {
  return account.nonPayment.excusedChargeIds?.length ? { excusedChargeIds: account.nonPayment.excusedChargeIds } : {};
}

/**
 * A pending cancellation withdrawn: the account is current again as of the decision's day; the
 * nightly job keeps watching it only while another cancellation is pending. Withdrawn by hand
 * (rescind_cancellation) while the invoice it stems from is still unpaid, that invoice is excused
 * from non-payment: still owed, but the nightly job does not pend the policy for it again.
 */
export async function billingAtRescission(rescinded: RescindedCancellation): Promise<TransactionWrite[]> {
  const loaded = await accountOf(rescinded.policyId, rescinded.termId, rescinded.policyNumber);
  const { account } = loaded;
  const unpaid = rescinded.byHand && account.nonPayment.status === 'cancellation_pending' ? account.nonPayment.chargeId : null;
  const excused = [...(account.nonPayment.excusedChargeIds ?? []), ...(unpaid ? [unpaid] : [])];
  return postingWrites({
    account,
    prior: loaded,
    entries: [],
    guardVersion: true,
    set: {
      nonPayment: { status: 'current', cancelDate: null, chargeId: null, ...(excused.length ? { excusedChargeIds: excused } : {}) },
      nightlyDate: rescinded.decisionDate,
      nightlyWatch: rescinded.otherPendingRemains,
    },
  });
}

/**
 * A reinstatement's postings. Without lapse the cancellation is undone to the cent: a
 * Reinstatement row reverses its Return Premium row and the installments it voided are billed
 * again, so the balance is what it was before the cancellation. With lapse the premium of the
 * days without cover (cancel date to reinstatement date, daily pro rata over the term) is
 * credited on a Lapse Credit row. The reinstatement fee, when assessed, is a row of its own.
 * An invoice the policy was cancelled for is excused from non-payment (the nightly job does
 * not cancel it again for the same unpaid invoice).
 */
export async function billingAtReinstatement(reinstated: ReinstatedTerm): Promise<TransactionWrite[]> {
  const loaded = await accountOf(reinstated.policyId, reinstated.termId, reinstated.policyNumber);
  const { account, entries, voided } = loaded;
  const settings = await billingSettings();
  const context = (offset: number) => ({ id: randomUUID(), postedAt: new Date(Date.parse(reinstated.decidedAt) + offset).toISOString(), generatedBy: reinstated.decidedBy, policyStatus: 'Active' });
  const returned = [...entries].reverse().find((entry) => entry.type === 'Return Premium' && entry.cancelDate === reinstated.cancelDate);
  const rebilled = voided.filter((entry) => entry.type === 'Invoice');
  const rows: AccountEntry[] = [
    accountEntry(context(0), {
      type: 'Reinstatement',
      date: reinstated.decisionDate,
      amountCents: -(returned?.amountCents ?? 0),
      summary: `Policy reinstated effective ${reinstated.reinstatementDate}${reinstated.lapseDays ? ` after ${reinstated.lapseDays} days without cover` : ''}`,
      description: rebilled.length ? `Cancellation reversed; installments ${rebilled.map((entry) => entry.installmentNumber).join(', ')} billed again` : 'Cancellation reversed',
      cancelDate: reinstated.cancelDate,
    }),
  ];
  if (reinstated.lapseDays > 0) {
    const items = await billableItemsOfRevision(reinstated.inForceRevisionId);
    const lapse = lapsePremiumCents(items, { effectiveDate: reinstated.termEffectiveDate, expirationDate: reinstated.termExpirationDate, from: reinstated.cancelDate, to: reinstated.reinstatementDate });
    rows.push(accountEntry(context(1), { type: 'Lapse Credit', date: reinstated.decisionDate, amountCents: -lapse, summary: `Premium of the ${reinstated.lapseDays} days without cover ${formatCents(lapse)} not charged`, cancelDate: reinstated.cancelDate }));
  }
  if (reinstated.feeAction === 'assess' && settings.reinstatementFeeCents > 0) {
    rows.push(accountEntry(context(2), { type: 'Reinstatement Fee', date: reinstated.decisionDate, amountCents: settings.reinstatementFeeCents, summary: `Reinstatement fee ${formatCents(settings.reinstatementFeeCents)}`, billDate: reinstated.decisionDate, dueDate: addDays(reinstated.decisionDate, settings.rules.billDaysBeforeDue) }));
  }
  const voidedNow = new Set(rebilled.map((entry) => entry.id));
  const excused = [...(account.nonPayment.excusedChargeIds ?? []), ...(account.nonPayment.chargeId ? [account.nonPayment.chargeId] : [])];
  return postingWrites({
    account,
    prior: loaded,
    entries: rows,
    guardVersion: true,
    balanceAdjustmentCents: sum(rebilled.map((entry) => entry.amountCents)),
    set: {
      policyStatus: 'Active',
      nightlyWatch: false,
      nonPayment: { status: 'current', cancelDate: null, chargeId: null, ...(excused.length ? { excusedChargeIds: [...new Set(excused)] } : {}) },
      voidedEntryIds: (account.voidedEntryIds ?? []).filter((id) => !voidedNow.has(id)),
    },
  });
}
