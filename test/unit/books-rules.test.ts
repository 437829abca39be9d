/**
 * The books' pure rules: daily pro rata earning (each written amount over its own days, rounded
 * on the running total so the days and the months add up to what was written), a cancellation
 * earning all that stays at its date, the journal's days balancing, and a report's balances
 * running on month to month.
 */
import { describe, expect, it } from 'vitest';
import type { BooksGroup, EarningLayer } from '../../shared/books/model.js';
import { countersOfRow, earnedThrough, earningPieces, journalOfDay, lastEarningDay, premiumReportCsv, premiumReportLines, trialBalance } from '../../shared/books/rules.js';
import { addDays } from '../../shared/platform/dates.js';

const YEAR: EarningLayer = { cents: 82662, from: '2025-01-01', to: '2026-01-01', kind: 'issue' };

describe('earning', () => {
  it('earns daily pro rata over the days in force, to the cent, the running total rounded (17 of 365 days of 826.62 is 38.50)', () => {
    expect(earnedThrough({ layers: [YEAR], stopsAt: null }, '2024-12-31')).toBe(0);
    expect(earnedThrough({ layers: [YEAR], stopsAt: null }, '2025-01-17')).toBe(3850);
    expect(earnedThrough({ layers: [YEAR], stopsAt: null }, '2025-12-31')).toBe(82662);
    expect(earnedThrough({ layers: [YEAR], stopsAt: null }, '2026-06-01')).toBe(82662);
  });

  it('books a year day by day or month by month to the same total: exactly what was written', () => {
    const earning = { layers: [YEAR, { cents: 15593, from: '2025-07-02', to: '2026-01-01', kind: 'endorsement' }], stopsAt: null };
    let daily = { earnedThrough: '2024-12-31', earnedCents: 0 };
    let sum = 0;
    for (let day = '2025-01-01'; day <= '2025-12-31'; day = addDays(day, 1)) {
      const pieces = earningPieces({ ...earning, ...daily }, day);
      const cents = pieces.reduce((total, piece) => total + piece.cents, 0);
      sum += cents;
      daily = { earnedThrough: day, earnedCents: daily.earnedCents + cents };
    }
    expect(sum).toBe(82662 + 15593);
    // One catch-up run over the year: a piece per month, the same total.
    const pieces = earningPieces({ ...earning, earnedThrough: '2024-12-31', earnedCents: 0 }, '2025-12-31');
    expect(pieces.map((piece) => piece.date)).toEqual(Array.from({ length: 12 }, (_, index) => addDays(`2025-${String(index + 2).padStart(2, '0')}-01`.replace('2025-13', '2026-01'), -1)));
    expect(pieces.reduce((total, piece) => total + piece.cents, 0)).toBe(82662 + 15593);
    // Run again for the same day: nothing.
    expect(earningPieces({ ...earning, earnedThrough: '2025-12-31', earnedCents: 98255 }, '2025-12-31')).toEqual([]);
  });

  it('earns what stays written at the cancel date (minimum earned premium included) and nothing after; a reinstatement resumes earning', () => {
    const cancelled = { layers: [YEAR, { cents: -72662, from: '2025-01-16', to: '2025-01-16', kind: 'cancellation' }], stopsAt: '2025-01-16' };
    expect(earnedThrough(cancelled, '2025-01-15')).toBe(earnedThrough({ layers: [YEAR], stopsAt: null }, '2025-01-15'));
    expect(earnedThrough(cancelled, '2025-01-16')).toBe(10000);
    expect(earnedThrough(cancelled, '2025-12-31')).toBe(10000);
    expect(lastEarningDay(cancelled)).toBe('2025-01-16');
    const reinstated = { layers: [...cancelled.layers, { cents: 72662, from: '2025-01-16', to: '2025-01-16', kind: 'reinstatement' }], stopsAt: null };
    expect(earnedThrough(reinstated, '2025-12-31')).toBe(82662);
    expect(lastEarningDay(reinstated)).toBe('2025-12-31');
  });
});

describe('the journal', () => {
  it('posts each day balanced, a negative amount the other way round, and the trial balance sums to zero', () => {
    const lines = journalOfDay('2025-06-15', { writtenNewBusiness: 82662, writtenCancellations: -52314, feesAndTaxes: 2500, billed: 85162, collected: 85162, refunded: 52314, earned: 3850 });
    const debits = lines.reduce((total, line) => total + line.debit, 0);
    expect(debits).toBe(lines.reduce((total, line) => total + line.credit, 0));
    const balances = trialBalance(lines);
    expect(balances['Unearned premium']).toBe(-(82662 - 52314 - 3850));
    expect(balances['Premium receivable']).toBe(85162 - 85162 + 52314);
    expect(balances.Cash).toBe(85162 - 52314);
    expect(balances['Earned premium']).toBe(-3850);
    expect(balances['Refunds payable']).toBe(0);
    expect(Object.values(balances).reduce((total, cents) => total + cents, 0)).toBe(0);
    expect(trialBalance(journalOfDay('2025-06-16', { commission: 12399 }))).toEqual({ 'Commission expense': 12399, 'Commission payable': -12399 });
    expect(journalOfDay('2025-06-16', { writtenEndorsements: -1000 })).toEqual([
      expect.objectContaining({ account: 'Unearned premium', debit: 1000 }),
      expect.objectContaining({ account: 'Premium written not yet billed', credit: 1000 }),
    ]);
  });

  it('reads an account-history row as billed, collected or refunded', () => {
    expect(countersOfRow({ type: 'Invoice', amountCents: 85162 })).toEqual({ billed: 85162 });
    expect(countersOfRow({ type: 'Return Premium', amountCents: -72662 })).toEqual({ billed: -72662 });
    expect(countersOfRow({ type: 'Payment', amountCents: -85162 })).toEqual({ collected: 85162 });
    expect(countersOfRow({ type: 'NSF Reversal', amountCents: 85162 })).toEqual({ collected: -85162 });
    expect(countersOfRow({ type: 'Refund', amountCents: 72662 })).toEqual({ refunded: 72662 });
  });
});

describe('the premium report', () => {
  const ny: BooksGroup = { state: 'NY', line: 'home', policyType: 'ho3', agency: 'a1', rateVersion: 'v1' };
  const nj: BooksGroup = { ...ny, state: 'NJ' };
  it('rolls groups up to the dimensions asked and runs the balances on month to month; an adjustment has a line of its own', () => {
    const lines = premiumReportLines(['2025-01', '2025-02'], [{ group: ny, counters: { writtenNewBusiness: 1000, earned: 400, billed: 500, collected: 100, inForceChange: 1 } }], [
      { month: '2025-01', kind: 'current', group: ny, counters: { writtenNewBusiness: 2000, earned: 100 } },
      { month: '2025-01', kind: 'current', group: nj, counters: { writtenNewBusiness: 3000, inForceChange: 1 } },
      { month: '2025-02', kind: 'adjustment', group: nj, counters: { billed: 700 } },
      { month: '2025-02', kind: 'current', group: ny, counters: { earned: 50 } },
    ], ['agency']);
    expect(lines.map((line) => [line.month, line.kind, line.unearned_start, line.unearned_end, line.receivable_end, line.policies_in_force_end])).toEqual([
      ['2025-01', 'current', 6, 55, 4, 2],
      ['2025-02', 'prior_period_adjustments', 55, 55, 11, 2],
      ['2025-02', 'current', 55, 54.5, 11, 2],
    ]);
    expect(premiumReportCsv(lines, ['agency']).split('\n')[1]).toBe('2025-01,current,a1,50.00,0.00,0.00,0.00,0.00,0.00,50.00,1.00,6.00,55.00,0.00,0.00,0.00,0.00,0.00,4.00,4.00,2');
  });
});
