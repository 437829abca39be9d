/**
 * Cancellation for non-payment, decided per policy per day. An invoice unpaid after its
 * due date puts the policy in cancellation pending, with the cancel date N days (billing
 * rules data) after the due date; paying it before the cancel date rescinds the notice;
 * still unpaid on the cancel date, the policy is cancelled on that date. The decision is a
 * function of the account and the date alone; the previous decision only keeps an action
 * from being emitted twice.
 */
import type { BillingRules } from '../catalog/index.js';
import { addDays } from '../platform/dates.js';
import { chargeStandings, inDueOrder } from './ledger.js';
import type { Charge, Credit, NonPaymentDecision, NonPaymentState } from './model.js';

export interface NonPaymentInput {
  charges: readonly Charge[];
  credits: readonly Credit[];
  /** The day decided for. */
  date: string;
  rules: Pick<BillingRules, 'nonPaymentCancelDaysAfterDue'>;
  /** The decision of the last run for this policy, if any. */
  previous?: NonPaymentState | null;
  /** The term's end: a cancel date is never later (a due date moved late in the term would otherwise cancel outside it, which the cancel move refuses). */
  expirationDate?: string;
}

const CURRENT: NonPaymentState = { status: 'current', cancelDate: null, chargeId: null };

/**
 * Due dates for non-payment: a payment reversed with `allowCancel` false moves what it had
 * paid to the reversal's new due date (never earlier than the original).
 */
export function nonPaymentDueDates(charges: readonly Charge[], credits: readonly Credit[]): Map<string, string> {
  const due = new Map(charges.map((charge) => [charge.id, charge.dueDate]));
  const actual = new Map(chargeStandings(charges, credits).charges.map((charge) => [charge.id, charge.openCents]));
  for (const credit of credits) {
    const newDueDate = credit.reversal && !credit.reversal.allowCancel ? credit.reversal.dueDate : null;
    if (!newDueDate) continue;
    const asIfPaid = credits.map((other) => (other === credit ? { ...other, reversal: null } : other));
    for (const charge of chargeStandings(charges, asIfPaid).charges) {
      const reopened = (actual.get(charge.id) ?? 0) > charge.openCents;
      if (reopened && newDueDate > due.get(charge.id)!) due.set(charge.id, newDueDate);
    }
  }
  return due;
}

function openOn(input: NonPaymentInput, chargeId: string, window: { through?: string; before?: string }): number {
  return chargeStandings(input.charges, input.credits, window).charges.find((charge) => charge.id === chargeId)?.openCents ?? 0;
}

/** Where the policy stands on `date`, from the account alone. */
export function nonPaymentState(input: NonPaymentInput): NonPaymentState {
  const dueDates = nonPaymentDueDates(input.charges, input.credits);
  const excused = new Set(input.previous?.excusedChargeIds ?? []);
  const invoices = inDueOrder(
    input.charges.filter((charge) => charge.kind === 'Invoice' && !excused.has(charge.id)).map((charge) => ({ ...charge, dueDate: dueDates.get(charge.id)! })),
  );
  const cancelDateOf = (dueDate: string) => {
    const date = addDays(dueDate, input.rules.nonPaymentCancelDaysAfterDue);
    return input.expirationDate && date > input.expirationDate ? input.expirationDate : date;
  };
  // Only money received before the cancel date saves the policy.
  for (const invoice of invoices) {
    const cancelDate = cancelDateOf(invoice.dueDate);
    if (cancelDate <= input.date && openOn(input, invoice.id, { before: cancelDate }) > 0) {
      return { status: 'cancelled', cancelDate, chargeId: invoice.id };
    }
  }
  for (const invoice of invoices) {
    if (invoice.dueDate < input.date && openOn(input, invoice.id, { through: input.date }) > 0) {
      return { status: 'cancellation_pending', cancelDate: cancelDateOf(invoice.dueDate), chargeId: invoice.id };
    }
  }
  return CURRENT;
}

/** The decision for one policy on one day, and the action it needs given the previous run's decision. */
export function decideNonPayment(input: NonPaymentInput): NonPaymentDecision {
  const previous = input.previous ?? CURRENT;
  // A cancelled policy stays cancelled: reinstatement is not a non-payment decision.
  if (previous.status === 'cancelled') return { ...previous, action: 'none' };
  const next = nonPaymentState(input);
  if (next.status === 'cancelled') return { ...next, action: 'cancel' };
  if (next.status === 'cancellation_pending') {
    const unchanged = previous.status === 'cancellation_pending' && previous.cancelDate === next.cancelDate && previous.chargeId === next.chargeId;
    return { ...next, action: unchanged ? 'none' : 'notify_cancellation_pending' };
  }
  return { ...next, action: previous.status === 'cancellation_pending' ? 'rescind' : 'none' };
}
