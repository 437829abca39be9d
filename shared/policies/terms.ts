/** Term types, their lengths, and deducing a term from its dates (spec 2.6). */
import { addMonths, daysBetween } from '../platform/dates.js';

export const TERM_TYPES = ['3 Years', '1 Year', 'Annual', '9 Months', '6 Months', '3 Months', '1 Month', 'Monthly', 'Custom'] as const;
export type TermType = (typeof TERM_TYPES)[number];
export const CREATABLE_TERM_TYPES = ['Custom', '3 Years', '1 Year', '9 Months', '6 Months', '3 Months'] as const;
export const RENEWAL_TERM_TYPES = ['3 Years', '1 Year', '9 Months', '6 Months', '3 Months'] as const;

/** Months of each fixed term type; the first name of a length is the one deduced. */
const MONTHS: ReadonlyArray<[Exclude<TermType, 'Custom'>, number]> = [
  ['3 Years', 36],
  ['1 Year', 12],
  ['Annual', 12],
  ['9 Months', 9],
  ['6 Months', 6],
  ['3 Months', 3],
  ['1 Month', 1],
  ['Monthly', 1],
];

export function monthsOf(termType: TermType): number | undefined {
  return MONTHS.find(([name]) => name === termType)?.[1];
}

/** The expiration of a fixed term type, or undefined for `Custom`. */
export function expirationFor(effectiveDate: string, termType: TermType): string | undefined {
  const months = monthsOf(termType);
  return months === undefined ? undefined : addMonths(effectiveDate, months);
}

/**
 * Term type and length (in whole months) of a term from its dates: a fixed type
 * when the expiration is exactly that many months after the effective date,
 * otherwise `Custom` with the whole months it spans.
 */
export function deduceTerm(effectiveDate: string, expirationDate: string): { termType: TermType; termLength: number } {
  for (const [termType, months] of MONTHS) {
    if (addMonths(effectiveDate, months) === expirationDate) return { termType, termLength: months };
  }
  return { termType: 'Custom', termLength: wholeMonthsBetween(effectiveDate, expirationDate) };
}

function wholeMonthsBetween(from: string, to: string): number {
  if (daysBetween(from, to) <= 0) return 0;
  let months = 0;
  while (addMonths(from, months + 1) <= to) months += 1;
  return months;
}
