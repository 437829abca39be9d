/** The commission rules, pure: which rate applies, and what a transaction earns (the one place that computes it). */
import { percentOf } from '../platform/money.js';
import type { CommissionSchedule } from './model.js';

/** The reference product's rates, for every agency unless a schedule says otherwise. */
export const DEFAULT_RATES = { newBusinessRate: '15', renewalRate: '12' } as const;

/**
 * A transaction's commission: `rate` percent of the written premium it moved, rounded half-up
 * to the cent per transaction; a return premium is charged back at the same rate (rounded as its
 * magnitude, so 15% of -726.62 is -108.99). Fees and taxes never reach here.
 */
export function commissionCents(premiumCents: number, rate: string): number {
  const magnitude = percentOf(Math.abs(premiumCents), rate);
  return premiumCents < 0 ? -magnitude : magnitude;
}

/** The agency's rate for a line and state: the most specific schedule (line and state, line, state, any), else the reference rates. */
export function scheduledRate(schedules: readonly CommissionSchedule[], lineId: string, state: string | null, kind: 'new_business' | 'renewal'): string {
  const candidates: Array<[string, string]> = [[lineId, state ?? '*'], [lineId, '*'], ['*', state ?? '*'], ['*', '*']];
  for (const [line, st] of candidates) {
    const found = schedules.find((schedule) => schedule.lineId === line && schedule.state === st);
    if (found) return kind === 'renewal' ? found.renewalRate : found.newBusinessRate;
  }
  return kind === 'renewal' ? DEFAULT_RATES.renewalRate : DEFAULT_RATES.newBusinessRate;
}

/**
 * Collected basis: the premium collected so far on a term, what is collected in proportion of
 * what the term charges (premium and fees), never more than its written premium; half-up to the
 * cent. Commission is earned on it as payments come in, and the cumulative figure keeps the sum
 * of the rows exact: the term paid in full earns what the written basis would.
 */
export function collectedPremiumCents(term: { writtenPremiumCents: number; chargesCents: number; collectedCents: number }): number {
  if (term.writtenPremiumCents <= 0 || term.chargesCents <= 0 || term.collectedCents <= 0) return 0;
  const share = BigInt(Math.min(term.collectedCents, term.chargesCents));
  const charges = BigInt(term.chargesCents);
  return Number((BigInt(term.writtenPremiumCents) * share * 2n + charges) / (2n * charges));
}

/** `YYYY-MM` of a date. */
export const monthOf = (date: string) => date.slice(0, 7);

/** The month before `YYYY-MM`. */
export function previousMonth(month: string): string {
  const [year, number] = month.split('-').map(Number);
  return number === 1 ? `${year! - 1}-12` : `${year}-${String(number! - 1).padStart(2, '0')}`;
}
