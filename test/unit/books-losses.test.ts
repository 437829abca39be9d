/**
 * The books' rules for a claim's money (issue 46, "the books"): the loss counters of the worked
 * claim of ../shared/spec/claims.md, the loss report's case reserves, incurred and loss ratio over
 * its months, the premium report's loss columns, and the journal entries it posts (each day
 * balanced; the expense accounts hold what the report calls incurred).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { booksOfClaimMoney } from '../../shared/books/index.js';
import type { ClaimMoney, LossCounters, LossGroup } from '../../shared/books/model.js';
import {
  countersOfClaimMoney, journalOfDay, lossGroupOf, lossRatio, lossReportCsv, lossReportLines, premiumReportLines, trialBalance, withLossColumns, type MonthAggregate, type MonthLossAggregate,
} from '../../shared/books/rules.js';

beforeAll(() => {
  process.env.TABLE_NAME = 'T';
});

const loss = (kind: ClaimMoney['kind'], cents: number): ClaimMoney => ({ kind, costType: 'loss', amountCents: cents });
const expense = (kind: ClaimMoney['kind'], cents: number): ClaimMoney => ({ kind, costType: 'expense', amountCents: cents });

/** The worked claim's money, move by move, with the day each was decided. */
const WORKED: Array<{ date: string; what: string; money: ClaimMoney[] }> = [
  { date: '2026-03-02', what: 'exposures opened at their default reserves', money: [loss('reserve_change', 500000), loss('reserve_change', 100000)] },
  { date: '2026-03-05', what: 'reserves set', money: [loss('reserve_change', 700000), expense('reserve_change', 80000), loss('reserve_change', 50000)] },
  { date: '2026-03-10', what: 'Dwelling payment approved', money: [loss('paid', 1025000), loss('reserve_change', -1025000)] },
  { date: '2026-03-12', what: 'Loss of Use payment', money: [loss('paid', 120000), loss('reserve_change', -120000)] },
  { date: '2026-03-12', what: 'independent adjuster paid', money: [expense('paid', 65000), expense('reserve_change', -65000)] },
  { date: '2026-03-20', what: 'checks cleared', money: [loss('check_cleared', 1025000), loss('check_cleared', 120000), expense('check_cleared', 65000)] },
  { date: '2026-03-31', what: 'closed with pay', money: [loss('reserve_change', -175000), loss('reserve_change', -30000), expense('reserve_change', -15000)] },
  { date: '2026-04-15', what: 'subrogation recovery', money: [loss('recovered', 400000), loss('deductible_reimbursed', 100000)] },
  { date: '2026-04-20', what: 'the insured\'s deductible check cleared', money: [loss('check_cleared', 100000)] },
];

const claim = { claimId: 'c1', state: 'NY', lineId: 'home', policyTypeId: 'ho3', agencyId: 'a1', catastropheId: null, lossDate: '2026-03-01' };
const GROUP: LossGroup = lossGroupOf(claim);
const premiumGroup = { state: 'NY', line: 'home', policyType: 'ho3', agency: 'a1', rateVersion: 'v1' };

/** The worked claim as the month aggregates the books would hold. */
function aggregatesOf(moves: typeof WORKED, group: LossGroup = GROUP): MonthLossAggregate[] {
  const byMonth = new Map<string, LossCounters>();
  for (const move of moves) {
    const month = move.date.slice(0, 7);
    const counters = byMonth.get(month) ?? {};
    for (const [counter, cents] of Object.entries(countersOfClaimMoney(move.money)) as Array<[keyof LossCounters, number]>) counters[counter] = (counters[counter] ?? 0) + cents;
    byMonth.set(month, counters);
  }
  return [...byMonth].map(([month, counters]) => ({ month, kind: 'current', group, counters }));
}

const EARNED: MonthAggregate[] = [
  { month: '2026-03', kind: 'current', group: premiumGroup, counters: { earned: 2000000 } },
  { month: '2026-04', kind: 'current', group: premiumGroup, counters: { earned: 2000000 } },
];

describe('a claim\'s money as the books count it', () => {
  it('groups a claim by its state, line, policy type, agency, catastrophe and accident year', () => {
    expect(GROUP).toEqual({ state: 'NY', line: 'home', policyType: 'ho3', agency: 'a1', catastrophe: '-', accidentYear: '2026' });
    expect(lossGroupOf({ ...claim, agencyId: null, catastropheId: 'CAT-7', lossDate: '2025-12-31' })).toMatchObject({ agency: '-', catastrophe: 'CAT-7', accidentYear: '2025' });
  });

  it('sums the worked claim\'s entries into its counters: paid 11,450.00 loss and 650.00 expense, reserves back to zero, 4,000.00 recovered, 1,000.00 passed on', () => {
    const all = countersOfClaimMoney(WORKED.flatMap((move) => move.money));
    expect(all).toEqual({
      reserveChangeLoss: 0, reserveChangeExpense: 0, paidLoss: 1145000, paidExpense: 65000, checksCleared: 1310000, recoveredLoss: 400000, deductibleReimbursed: 100000,
    });
    expect(countersOfClaimMoney([])).toEqual({});
    expect(countersOfClaimMoney([loss('paid', 1025000), loss('paid', -1025000)])).toEqual({ paidLoss: 0 });
  });

  it('writes a move\'s money on the claim\'s loss item of the month it was decided (the day\'s counters too), and nothing for a move without money', () => {
    expect(booksOfClaimMoney({ at: '2026-03-10T15:00:00.000Z', after: { claim } })).toEqual([]);
    expect(booksOfClaimMoney({ at: '2026-03-10T15:00:00.000Z', after: { claim }, money: [] })).toEqual([]);
    const [aggregate, marker] = booksOfClaimMoney({ at: '2026-03-10T15:00:00.000Z', after: { claim }, money: WORKED[2].money });
    expect(aggregate.Update?.Key).toEqual({ pk: 'BOOKS#MONTH#2026-03', sk: expect.stringMatching(/^LOSS#current#\d#NY\|home\|ho3\|a1\|-\|2026$/) });
    const added = Object.fromEntries(Object.entries(aggregate.Update!.ExpressionAttributeNames!).filter(([name]) => name.startsWith('#c')).map(([name, counter]) => [counter, aggregate.Update!.ExpressionAttributeValues![`:${name.slice(1)}`]]));
    expect(added).toEqual({ paidLoss: 1025000, reserveChangeLoss: -1025000, 'paidLoss/10': 1025000, 'reserveChangeLoss/10': -1025000 });
    expect(marker.Update?.Key).toEqual({ pk: 'BOOKS#CLOSE', sk: 'MONTH#2026-03' });
  });
});

describe('the loss report', () => {
  const lines = lossReportLines(['2026-03', '2026-04'], [], aggregatesOf(WORKED), EARNED, []);

  it('runs case reserves on month to month, end = start + changes, and reads incurred 12,100.00 then net 8,100.00 after the recovery', () => {
    expect(lines).toHaveLength(2);
    const [march, april] = lines;
    expect(march).toMatchObject({
      month: '2026-03', kind: 'current', paid_loss: 11450, paid_expense: 650, case_reserves_start: 0, case_reserves_end: 0, recoveries: 0,
      incurred_loss: 11450, incurred_expense: 650, incurred_total: 12100, earned_premium: 20000, loss_ratio: 0.5725, loss_and_expense_ratio: 0.605,
    });
    expect(april).toMatchObject({ month: '2026-04', recoveries: 4000, deductible_reimbursed: 1000, incurred_loss: -4000, incurred_total: -4000, loss_ratio: -0.2 });
    expect(march.incurred_total + april.incurred_total).toBe(8100);
    for (const line of lines) expect(Math.round(line.case_reserves_end * 100)).toBe(Math.round((line.case_reserves_start + line.reserve_change_loss + line.reserve_change_expense) * 100));
  });

  it('holds the outstanding reserves at a month end mid-claim: 14,300.00 after the reserves were set, carried into the next month', () => {
    const early = WORKED.slice(0, 2);
    const [march, april] = lossReportLines(['2026-03', '2026-04'], [], aggregatesOf(early), [], []);
    expect(march).toMatchObject({ case_reserves_start: 0, case_reserves_end: 14300, incurred_total: 14300, loss_ratio: null });
    expect(april).toMatchObject({ case_reserves_start: 14300, case_reserves_end: 14300, incurred_total: 0 });
    // Carried in from before the report's first month (a closing's running totals).
    const [fromOpening] = lossReportLines(['2026-04'], [{ group: GROUP, counters: countersOfClaimMoney(early.flatMap((move) => move.money)) }], [], [], ['state']);
    expect(fromOpening).toMatchObject({ group: { state: 'NY' }, case_reserves_start: 14300, case_reserves_end: 14300 });
  });

  it('divides a catastrophe\'s and an accident year\'s lines by the earned premium of the rest of their group, so their ratios add up to the whole', () => {
    const cat: LossGroup = { ...GROUP, catastrophe: 'CAT-1' };
    const aggregates: MonthLossAggregate[] = [
      { month: '2026-03', kind: 'current', group: GROUP, counters: { paidLoss: 300000 } },
      { month: '2026-03', kind: 'current', group: cat, counters: { paidLoss: 500000 } },
    ];
    const byCat = lossReportLines(['2026-03'], [], aggregates, EARNED, ['catastrophe']);
    expect(byCat.map((line) => [line.group.catastrophe, line.earned_premium, line.loss_ratio])).toEqual([['-', 20000, 0.15], ['CAT-1', 20000, 0.25]]);
    const whole = lossReportLines(['2026-03'], [], aggregates, EARNED, []);
    expect(whole.map((line) => line.loss_ratio)).toEqual([0.4]);
    const byYear = lossReportLines(['2026-03'], [], [...aggregates, { month: '2026-03', kind: 'current', group: { ...GROUP, accidentYear: '2025' }, counters: { reserveChangeLoss: -100000 } }], EARNED, ['line', 'accident_year']);
    expect(byYear.map((line) => [line.group.line, line.group.accident_year, line.incurred_loss, line.loss_ratio])).toEqual([['home', '2025', -1000, -0.05], ['home', '2026', 8000, 0.4]]);
  });

  it('shows a group that earned premium and had no claim (a ratio of 0), and a line of its own for money dated into a closed month', () => {
    const other = { ...premiumGroup, state: 'NJ' };
    const lines = lossReportLines(['2026-04'], [], [{ month: '2026-04', kind: 'adjustment', group: GROUP, counters: { paidLoss: 10000, reserveChangeLoss: -10000 } }], [...EARNED, { month: '2026-04', kind: 'current', group: other, counters: { earned: 50000 } }], ['state']);
    expect(lines.map((line) => [line.group.state, line.kind, line.incurred_loss, line.earned_premium, line.loss_ratio])).toEqual([
      ['NJ', 'current', 0, 500, 0],
      ['NY', 'prior_period_adjustments', 0, 0, null],
      ['NY', 'current', 0, 20000, 0],
    ]);
  });

  it('rounds a ratio to four decimals, half away from zero, and answers null over no premium', () => {
    expect(lossRatio(1, 3)).toBe(0.3333);
    expect(lossRatio(2, 3)).toBe(0.6667);
    expect(lossRatio(-2, 3)).toBe(-0.6667);
    expect(lossRatio(100, 0)).toBeNull();
  });

  it('answers CSV with the same figures', () => {
    const csv = lossReportCsv(lines, []).trim().split('\n');
    expect(csv[0]).toBe('month,kind,paid_loss,paid_expense,reserve_change_loss,reserve_change_expense,case_reserves_start,case_reserves_end,recoveries,deductible_reimbursed,recovery_reserves_end,incurred_loss,incurred_expense,incurred_total,earned_premium,loss_ratio,loss_and_expense_ratio');
    expect(csv[1]).toBe('2026-03,current,11450.00,650.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00,11450.00,650.00,12100.00,20000.00,0.5725,0.6050');
  });
});

describe('the premium report\'s loss columns', () => {
  it('joins each line\'s losses and ratio, adds a line for a group with losses and no premium, and says null when grouped by rate version', () => {
    const premium = premiumReportLines(['2026-03'], [], EARNED, ['agency']);
    const losses = lossReportLines(['2026-03'], [], [...aggregatesOf(WORKED), { month: '2026-03', kind: 'current', group: { ...GROUP, agency: 'a0' }, counters: { paidLoss: 5000 } }], EARNED, ['agency']);
    const lines = withLossColumns(premium, losses, ['agency']);
    expect(lines.map((line) => [line.group.agency, line.earned, line.paid_loss, line.paid_expense, line.case_reserves_end, line.incurred_loss, line.loss_ratio])).toEqual([
      ['a0', 0, 50, 0, 0, 50, null],
      ['a1', 20000, 11450, 650, 0, 11450, 0.5725],
    ]);
    // The premium figures are the premium report's own.
    expect(lines[1]).toMatchObject(premium[0]);
    expect(withLossColumns(premium, [], ['agency', 'rate_version'])[0]).toMatchObject({ paid_loss: null, loss_ratio: null });
  });
});

describe('the journal of a claim\'s money', () => {
  it('balances every day; the expense accounts hold incurred, the reserves and checks payable run back to zero, cash is the recovery less the checks', () => {
    const all: ReturnType<typeof journalOfDay> = [];
    for (const move of WORKED) {
      const lines = journalOfDay(move.date, countersOfClaimMoney(move.money));
      expect(lines.reduce((total, line) => total + line.debit, 0)).toBe(lines.reduce((total, line) => total + line.credit, 0));
      all.push(...lines);
    }
    const balances = trialBalance(all);
    expect(balances['Losses incurred']).toBe(1145000 - 400000);
    expect(balances['Loss adjustment expense']).toBe(65000);
    expect(balances['Loss and LAE reserves'] ?? 0).toBe(0);
    expect(balances['Claim checks payable'] ?? 0).toBe(0);
    expect(balances.Cash).toBe(-1310000 + 500000);
    // Net incurred 8,100.00 = what the expense accounts hold.
    expect(balances['Losses incurred'] + balances['Loss adjustment expense']).toBe(810000);
  });

  it('posts a payment within its reserve as Dr reserves / Cr checks payable, net, and a recovery as Dr Cash / Cr losses incurred and checks payable', () => {
    const net = trialBalance(journalOfDay('2026-03-10', countersOfClaimMoney(WORKED[2].money)));
    expect(net).toMatchObject({ 'Loss and LAE reserves': 1025000, 'Claim checks payable': -1025000, 'Losses incurred': 0 });
    const recovery = trialBalance(journalOfDay('2026-04-15', countersOfClaimMoney(WORKED[7].money)));
    expect(recovery).toEqual({ Cash: 500000, 'Losses incurred': -400000, 'Claim checks payable': -100000 });
    // A reserve raised: Dr losses incurred / Cr reserves; a void (negative payment) the other way round.
    expect(trialBalance(journalOfDay('2026-03-02', { reserveChangeLoss: 600000 }))).toEqual({ 'Losses incurred': 600000, 'Loss and LAE reserves': -600000 });
    expect(trialBalance(journalOfDay('2026-03-02', { paidLoss: -5000, reserveChangeLoss: 5000 }))).toEqual({ 'Losses incurred': 0, 'Claim checks payable': 5000, 'Loss and LAE reserves': -5000 });
  });
});
