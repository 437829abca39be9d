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

/** A revision's items over the days it was in force in the term: from `from` up to (not including) `to`. */
export interface RevisionInForce {
  from: string;
  to: string;
  /** Its items at their annual (full-term) amounts. */
  items: readonly BillableItem[];
}

export interface TermToCancel {
  effectiveDate: string;
  expirationDate: string;
  cancelDate: string;
  /** The term's committed revisions over the days each was in force; */
  revisions?: readonly RevisionInForce[];
  /** or, for a term never endorsed, its one revision's items over the whole term. */
  items?: readonly BillableItem[];
}

const inForceOf = (term: TermToCancel): RevisionInForce[] => [...(term.revisions ?? []), ...(term.items ? [{ from: term.effectiveDate, to: term.expirationDate, items: term.items }] : [])];

/**
 * Each item's premium (and fee) for the days from `from` to `to`: for each revision in force on
 * any of those days, its items × the days of it in force among them ÷ days in the term, rounded
 * to the cent item by item (the rule endorsements bill by). Items of several revisions add up by
 * item id and kind. The one place a cancellation's return and a lapse's premium come from.
 */
export function itemsOverDays(term: { effectiveDate: string; expirationDate: string; revisions: readonly RevisionInForce[] }, from: string, to: string, counts: (item: BillableItem) => boolean = () => true): Array<BillableItem & { daysCents: Cents }> {
  const daysInTerm = daysBetween(term.effectiveDate, term.expirationDate);
  const byItem = new Map<string, BillableItem & { daysCents: Cents }>();
  for (const revision of term.revisions) {
    const start = revision.from > from ? revision.from : from;
    const end = revision.to < to ? revision.to : to;
    const days = Math.max(0, daysBetween(start, end));
    for (const item of revision.items) {
      const key = `${item.kind}:${item.itemId}`;
      const share = counts(item) && days > 0 ? prorate(item.writtenCents, days, daysInTerm) : 0;
      const known = byItem.get(key);
      if (known) known.daysCents += share;
      else byItem.set(key, { ...item, daysCents: share });
    }
  }
  return [...byItem.values()];
}

function returnable(item: BillableItem, rules: CancellationRules): boolean {
  return item.earning === 'proRata' && (item.kind === 'premium' || rules.feesReturned);
}

/**
 * What a cancellation returns. Each returnable item returns, for each revision in force after
 * the cancel date, its amount × those days of it ÷ days in the term, rounded to the cent; then the premium
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
  const whole = { ...term, revisions: inForceOf(term) };
  // Written: each item over the whole term, revision by revision; a fully earned item as its latest revision states it.
  const written = new Map(itemsOverDays(whole, term.effectiveDate, term.expirationDate, (item) => item.earning === 'proRata').map((item) => [`${item.kind}:${item.itemId}` as string, item]));
  const returned = itemsOverDays(whole, term.cancelDate, term.expirationDate, (item) => returnable(item, rules));
  const latest = new Map(whole.revisions.flatMap((revision) => revision.items.map((item) => [`${item.kind}:${item.itemId}` as string, item] as const)));
  const kinds: Array<'premium' | 'fee'> = [];
  const items: ItemReturn[] = returned.map((item) => {
    const key = `${item.kind}:${item.itemId}`;
    kinds.push(item.kind);
    return {
      itemId: item.itemId,
      name: item.name,
      writtenCents: item.earning === 'proRata' ? written.get(key)!.daysCents : latest.get(key)!.writtenCents,
      returnedCents: item.daysCents,
    };
  });
  const premiums = items.filter((_, index) => kinds[index] === 'premium');
  const fees = items.filter((_, index) => kinds[index] === 'fee');
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
 * The change a cancellation makes to the account balance (the Return Premium row's amount),
 * beside voiding the installments not yet billed: the term's written premium and fees fall by
 * what is returned, and the part of that still in those installments goes with them. So after it
 * the account has billed exactly what stays written, whatever the term billed before (invoices,
 * endorsements), with no second computation of the written premium to round differently.
 * Negative: a credit owed to the insured; positive: earned premium still to collect.
 */
export function cancellationBalanceChange(figures: ReturnPremium, unbilled: { premiumCents: Cents; feesCents: Cents }): Cents {
  return unbilled.premiumCents + unbilled.feesCents - figures.returnedPremiumCents - figures.returnedFeesCents;
}

/**
 * The premium of days without cover (a reinstatement with lapse): each pro-rata premium item
 * over the days from `from` to `to`, revision by revision, as a cancellation returns it. Fees are not in it: they are fully earned.
 */
export function lapsePremiumCents(term: { effectiveDate: string; expirationDate: string; revisions: readonly RevisionInForce[] }, period: { from: string; to: string }): Cents {
  if (daysBetween(term.effectiveDate, term.expirationDate) <= 0 || daysBetween(period.from, period.to) <= 0) return 0;
  return sum(itemsOverDays(term, period.from, period.to, (item) => item.kind === 'premium' && item.earning === 'proRata').map((item) => item.daysCents));
}
