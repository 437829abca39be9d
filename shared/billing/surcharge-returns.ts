/**
 * A state's taxes, surcharges and assessments on cancellation and reinstatement, as filed:
 * one returned pro rata (Florida's guaranty-fund surcharge) gives back its share of the days
 * not covered, on a row of its own beside the Return Premium row; a fully earned one (the
 * Emergency Management surcharge) stays. A reinstatement takes each such row back.
 * Kept apart from the premium return (cancellation.ts) so that each is computed on its own.
 */
import type { CancellationRules } from '../catalog/index.js';
import { daysBetween } from '../platform/dates.js';
import { formatCents, prorate, type Cents } from '../platform/money.js';
import { accountEntry, type EntryContext } from './account-history.js';
import type { AccountEntry, BillableItem } from './model.js';

export interface SurchargeReturn {
  itemId: string;
  name: string;
  writtenCents: Cents;
  returnedCents: Cents;
}

/**
 * What a cancellation on `cancelDate` returns of each pro-rata charge: written × days from the
 * cancel date to the expiration date ÷ days in the term, rounded to the cent. When the carrier's
 * rules return every pro-rata fee, the charges are already among the returned fees: none here.
 */
export function surchargeReturns(term: { effectiveDate: string; expirationDate: string; cancelDate: string; items: readonly BillableItem[] }, rules: Pick<CancellationRules, 'feesReturned'>): SurchargeReturn[] {
  if (rules.feesReturned) return [];
  const daysInTerm = daysBetween(term.effectiveDate, term.expirationDate);
  const daysReturned = daysBetween(term.cancelDate, term.expirationDate);
  if (daysInTerm <= 0 || daysReturned <= 0 || daysReturned > daysInTerm) return [];
  return term.items
    .filter((item) => item.charge && item.earning === 'proRata' && item.writtenCents !== 0)
    .map((item) => ({ itemId: item.itemId, name: item.name, writtenCents: item.writtenCents, returnedCents: prorate(item.writtenCents, daysReturned, daysInTerm) }))
    .filter((returned) => returned.returnedCents !== 0);
}

/** The row of one surcharge returned: a credit, dated like the Return Premium row. */
export function surchargeReturnEntry(context: EntryContext, returned: SurchargeReturn, on: { date: string; cancelDate: string }): AccountEntry {
  return accountEntry(context, {
    type: 'Surcharge Return',
    date: on.date,
    amountCents: -returned.returnedCents,
    summary: `${returned.name} returned ${formatCents(returned.returnedCents)}`,
    description: `${returned.name}: ${formatCents(returned.returnedCents)} of ${formatCents(returned.writtenCents)} returned pro rata`,
    cancelDate: on.cancelDate,
    dueDate: on.cancelDate,
  });
}

/**
 * The rows a reinstatement adds to take back the surcharges its cancellation returned: each
 * Surcharge Return row of that cancel date not yet taken back, reversed to the cent.
 */
export function surchargeReinstatementEntries(context: (offset: number) => EntryContext, entries: readonly AccountEntry[], on: { date: string; cancelDate: string }): AccountEntry[] {
  const reversed = new Set(entries.filter((entry) => entry.type === 'Surcharge Reinstated').map((entry) => entry.reversesEntryId));
  return entries
    .filter((entry) => entry.type === 'Surcharge Return' && entry.cancelDate === on.cancelDate && !reversed.has(entry.id))
    .map((entry, index) =>
      accountEntry(context(index), {
        type: 'Surcharge Reinstated',
        date: on.date,
        amountCents: -entry.amountCents,
        summary: entry.summary.replace(/ returned /, ' charged again '),
        description: 'Cancellation reversed: the surcharge it returned is charged again',
        cancelDate: on.cancelDate,
        reversesEntryId: entry.id,
      }),
    );
}
