/** Term types, their lengths, and the dates of a term: a new policy's, and a term moved (spec 2.6). No I/O. */
import { addMonths, daysBetween, todayIso } from '../platform/dates.js';
import { BusinessRuleError } from '../platform/errors.js';
import type { MovedTerm, NewTermDates, PolicyRecord, TermRecord, TermType } from './model.js';

export type { TermType } from './model.js';
export const TERM_TYPES = ['3 Years', '1 Year', 'Annual', '9 Months', '6 Months', '3 Months', '1 Month', 'Monthly', 'Custom'] as const;
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

/**
 * The first term of a new policy: inception defaults to today, the effective date to the
 * inception, the expiration follows the term type (`Custom` needs one given).
 */
export function newTermDates(
  input: { inception_date?: string; effective_date?: string; term_type: TermType; expiration_date?: string },
  now: Date,
): NewTermDates {
  const inceptionDate = input.inception_date ?? todayIso(now);
  const effectiveDate = input.effective_date ?? inceptionDate;
  let expirationDate: string;
  if (input.term_type === 'Custom') {
    if (!input.expiration_date) throw new BusinessRuleError('expiration_date: is required when term_type is Custom');
    expirationDate = input.expiration_date;
  } else {
    expirationDate = expirationFor(effectiveDate, input.term_type)!;
  }
  if (expirationDate <= effectiveDate) throw new BusinessRuleError('expiration_date: must be after the effective date');
  const termLength = input.term_type === 'Custom' ? deduceTerm(effectiveDate, expirationDate).termLength : monthsOf(input.term_type)!;
  return { inceptionDate, effectiveDate, expirationDate, termLength };
}

/**
 * A term's dates moved by update_effective_and_expiration_date: a missing expiration keeps
 * the term type (a Custom term keeps its expiration); the type and length are then deduced
 * from the dates, keeping a requested name of the same length (Annual for 1 Year).
 */
export function movedTerm(term: Pick<TermRecord, 'effectiveDate' | 'expirationDate' | 'termType'>, input: { effective_date?: string; expiration_date?: string; policy_term_type?: TermType }): MovedTerm {
  const effectiveDate = input.effective_date ?? term.effectiveDate;
  let expirationDate = input.expiration_date;
  if (!expirationDate) {
    const keepType = (input.policy_term_type ?? term.termType) as TermType;
    expirationDate = keepType === 'Custom' ? term.expirationDate : expirationFor(effectiveDate, keepType)!;
  }
  if (expirationDate <= effectiveDate) throw new BusinessRuleError('expiration_date: must be after the effective date');
  const deduced = deduceTerm(effectiveDate, expirationDate);
  const requested = input.policy_term_type;
  const termType = requested && deduced.termType !== 'Custom' && monthsOf(requested) === monthsOf(deduced.termType) ? requested : deduced.termType;
  return { effectiveDate, expirationDate, termType, termLength: deduced.termLength };
}

/**
 * Before a policy is first issued its inception is its first term's start: it moves with it,
 * unless the client had set a different inception date on purpose.
 */
export function inceptionFollowsTerm(policy: Pick<PolicyRecord, 'active' | 'inceptionDate'>, isFirstTerm: boolean, term: Pick<TermRecord, 'effectiveDate'>, newEffectiveDate: string): boolean {
  return !policy.active && isFirstTerm && policy.inceptionDate === term.effectiveDate && newEffectiveDate !== term.effectiveDate;
}

/**
 * The terms that are the policy's: every term but a held renewal's archived without ever coming
 * into force (it could never be in force, endorsed, billed or renewed, and reads as no term of
 * the policy). Expiry, a Non-Renewal and a cancellation mark such a term (`archivedOn`); one
 * archived before the mark existed is known by its link: the term it renews expired with it
 * still held, or no longer names it as its renewal (a Non-Renewal let go of it;
 * reinstate_expired_policy made another).
 */
export function liveTerms<Term extends Pick<TermRecord, 'id' | 'renewedFromTermId' | 'renewal' | 'expiredOn' | 'archivedOn'>>(terms: readonly Term[]): Term[] {
  const byId = new Map(terms.map((term) => [term.id, term]));
  return terms.filter((term) => {
    if (term.archivedOn) return false;
    const renewed = term.renewedFromTermId ? byId.get(term.renewedFromTermId) : undefined;
    if (!renewed) return true;
    if (renewed.renewal?.termId !== term.id) return false;
    return !(renewed.renewal.state === 'held' && renewed.expiredOn);
  });
}
