/**
 * Cancellation figures: daily pro-rata return premium per item, fees fully earned,
 * a minimum earned premium except on a flat cancellation. The minimum, whether fees
 * are returned and how each item is earned are data (cancellation rules, catalog items).
 */
import type { CancellationRules } from '../catalog/index.js';
import { daysBetween } from '../platform/dates.js';
import { InvalidCancelDateError } from '../lifecycle/index.js';
import { prorate, sum, type Cents } from '../platform/money.js';
import type { BillableItem, ItemReturn, ReturnPremium } from './model.js';

export { InvalidCancelDateError };

export interface TermToCancel {
  effectiveDate: string;
  expirationDate: string;
  cancelDate: string;
  items: readonly BillableItem[];
}

function returnable(item: BillableItem, rules: CancellationRules): boolean {
  return item.earning === 'proRata' && (item.kind === 'premium' || rules.feesReturned);
}

/**
 * What a cancellation returns. Each returnable item returns written × days from the cancel
 * date to the expiration date ÷ days in the term, rounded to the cent; then the premium
 * return is reduced so that the minimum earned premium (or the whole premium, if smaller)
 * stays earned, unless the cancellation is flat (on the effective date).
 */
export function returnPremium(term: TermToCancel, rules: CancellationRules, minimumEarnedPremiumCents: Cents): ReturnPremium {
  const daysInTerm = daysBetween(term.effectiveDate, term.expirationDate);
  const daysReturned = daysBetween(term.cancelDate, term.expirationDate);
  if (daysInTerm <= 0 || daysReturned < 0 || daysReturned > daysInTerm) {
    throw new InvalidCancelDateError(term.cancelDate, term.effectiveDate, term.expirationDate);
  }
  const flat = daysReturned === daysInTerm;
  const items: ItemReturn[] = term.items.map((item) => ({
    itemId: item.itemId,
    name: item.name,
    writtenCents: item.writtenCents,
    returnedCents: returnable(item, rules) ? prorate(item.writtenCents, daysReturned, daysInTerm) : 0,
  }));
  const premiums = items.filter((_, index) => term.items[index].kind === 'premium');
  const fees = items.filter((_, index) => term.items[index].kind === 'fee');
  const writtenPremiumCents = sum(premiums.map((item) => item.writtenCents));
  const proRataReturnCents = sum(premiums.map((item) => item.returnedCents));
  const mustStayEarned = flat ? 0 : Math.max(0, Math.min(minimumEarnedPremiumCents, writtenPremiumCents));
  const returnedPremiumCents = Math.max(0, Math.min(proRataReturnCents, writtenPremiumCents - mustStayEarned));
  return {
    flat,
    daysInTerm,
    daysReturned,
    writtenPremiumCents,
    earnedPremiumCents: writtenPremiumCents - returnedPremiumCents,
    returnedPremiumCents,
    writtenFeesCents: sum(fees.map((item) => item.writtenCents)),
    returnedFeesCents: sum(fees.map((item) => item.returnedCents)),
    items,
    minimumEarnedAdjustmentCents: returnedPremiumCents - proRataReturnCents,
  };
}

/**
 * The change a cancellation makes to the account balance (the Return Premium row's amount):
 * what stays earned minus what was already billed. Installments not yet billed never are.
 * Negative: a credit owed to the insured; positive: earned premium still to collect.
 */
export function cancellationBalanceChange(figures: ReturnPremium, billed: { premiumCents: Cents; feesCents: Cents }): Cents {
  const earnedFeesCents = figures.writtenFeesCents - figures.returnedFeesCents;
  return figures.earnedPremiumCents - billed.premiumCents + (earnedFeesCents - billed.feesCents);
}

/**
 * The premium of days without cover (a reinstatement with lapse): each pro-rata premium item's
 * written premium × days from `from` to `to` ÷ days in the term, rounded to the cent, item by
 * item as a cancellation returns it. Fees are not in it: they are fully earned.
 */
export function lapsePremiumCents(items: readonly BillableItem[], period: { effectiveDate: string; expirationDate: string; from: string; to: string }): Cents {
  const daysInTerm = daysBetween(period.effectiveDate, period.expirationDate);
  const days = daysBetween(period.from, period.to);
  if (daysInTerm <= 0 || days <= 0) return 0;
  return sum(items.filter((item) => item.kind === 'premium' && item.earning === 'proRata').map((item) => prorate(item.writtenCents, days, daysInTerm)));
}
