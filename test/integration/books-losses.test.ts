/**
 * Losses in the books (issue 46, "the books"): a simulated quarter (January to March 2026) of two
 * New York policies, the worked claim of ../shared/spec/claims.md on one (its loss on 2025-12-31,
 * accident year 2025) and a second claim on the other in a February catastrophe. Each claim's money
 * is committed as a claim move through the one transaction runner (commitClaimMove, with the money
 * moves' contributions of shared/moves/claims.ts), then read back through HTTP: reports/losses
 * reconciles every month and group (case reserves at end = at start + changes; incurred = paid +
 * change in reserves − recoveries), reads the worked claim's incurred 12,100.00 and net 8,100.00
 * after the recovery, groups by catastrophe and accident year; reports/premium carries the loss
 * columns; the journal balances every day and its trial balance holds the reserves and incurred;
 * a closed month keeps its figures when a move is dated back into it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { handler as nightlyEarning } from '../../events/schedules/nightly_earning.js';
import { commitClaimMove, type ClaimMoneyEntry } from '../../shared/claims/index.js';
import { getClaim } from '../../shared/claims/store.js';
import { moneyContributions } from '../../shared/moves/claims.js';
import { clock } from '../../shared/platform/clock.js';
import { newAgency } from '../support/agencies.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';
import { issueWorkedExample, type IssuedWorkedExample } from '../support/worked-example.js';

const C = '/api/v2/claims';
const R = '/api/v2/reports';
let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});
afterEach(() => clock.startAt(undefined));
afterAll(async () => {
  await service?.stop();
});

const on = (day: string) => clock.startAt(day);
const cents = (amount: number) => Math.round(amount * 100);
type Line = Record<string, any>;

type Money = Pick<ClaimMoneyEntry, 'kind' | 'amountCents'> & Partial<ClaimMoneyEntry>;
const loss = (kind: ClaimMoneyEntry['kind'], amount: number, coverage = 'Dwelling'): Money => ({ kind, costType: 'loss', amountCents: cents(amount), coverage });
const expense = (kind: ClaimMoneyEntry['kind'], amount: number): Money => ({ kind, costType: 'expense', amountCents: cents(amount), coverage: 'Dwelling' });

/** A claim's money move decided on `day` (at 15:00 UTC), committed as the claim's move with the money moves' contributions; the clock on `today` (the day, unless a late entry). */
async function moneyMove(claimId: string, day: string, money: Money[], today = day) {
  on(today);
  const claim = await getClaim(claimId);
  if (!claim) throw new Error(`no claim ${claimId}`);
  const entries: ClaimMoneyEntry[] = money.map((entry, index) => ({
    costType: 'loss', exposureId: `${claimId}-${entry.coverage ?? 'Dwelling'}`, coverage: 'Dwelling', transactionId: `${claimId}-${day}-${index}`, ...entry,
  }));
  const at = `${day}T15:00:00.000Z`;
  await commitClaimMove({
    kind: 'money', label: 'The claim\'s money', at, by: 'books-losses-test', before: { claim, claimantIds: [] }, after: { claim: { ...claim, updatedAt: at }, claimantIds: [] },
    changes: [], reason: null, money: entries, contributions: moneyContributions,
  });
}

async function reportClaim(policy: IssuedWorkedExample, lossDate: string, reportedDate: string, catId?: string): Promise<string> {
  on(reportedDate);
  const answer = ok(await service.call(`${C}/new_claim`, {
    policy_number: policy.policyNumber, loss_date: lossDate, reported_date: reportedDate, peril: 'WTR', description: 'Water in the house',
    reported_by: { name: 'Pat Example', relation: 'insured', phone: '555-0100' }, ...(catId ? { cat_id: catId } : {}),
  }));
  return answer.id as string;
}

const losses = async (body: Record<string, unknown>) => ok(await service.call(`${R}/losses`, body));
const premium = async (body: Record<string, unknown>) => ok(await service.call(`${R}/premium`, body));
const round4 = (value: number) => Math.sign(value) * Math.round(Math.abs(value) * 10000) / 10000;

describe('losses in the books over a simulated quarter', () => {
  let agency: string;
  let worked: string;
  let storm: string;
  let catId: string;

  it('commits each claim move\'s money in its transaction, and the loss report reconciles every month and group', async () => {
    agency = await newAgency();
    on('2025-11-01');
    const first = await issueWorkedExample(service, 'Pat Example', '2025-11-01', { agencyId: agency });
    const second = await issueWorkedExample(service, 'Sam Storm', '2025-11-01', { agencyId: agency });
    for (const day of ['2025-11-30', '2025-12-31']) await nightlyEarning({ date: day });

    // The worked claim: a pipe bursts on day 60 of the term, reported on day 62.
    worked = await reportClaim(first, '2025-12-31', '2026-01-02');
    await moneyMove(worked, '2026-01-02', [loss('reserve_change', 5000), loss('reserve_change', 1000, 'Loss of Use')]);
    await moneyMove(worked, '2026-01-05', [loss('reserve_change', 7000), expense('reserve_change', 800), loss('reserve_change', 500, 'Loss of Use')]);
    await moneyMove(worked, '2026-01-12', [loss('paid', 10250), loss('reserve_change', -10250)]);
    await moneyMove(worked, '2026-01-14', [loss('paid', 1200, 'Loss of Use'), loss('reserve_change', -1200, 'Loss of Use')]);
    await moneyMove(worked, '2026-01-14', [expense('paid', 650), expense('reserve_change', -650)]);
    await moneyMove(worked, '2026-01-20', [loss('check_cleared', 10250), loss('check_cleared', 1200, 'Loss of Use'), expense('check_cleared', 650)]);
    await moneyMove(worked, '2026-01-30', [loss('reserve_change', -1750), loss('reserve_change', -300, 'Loss of Use'), expense('reserve_change', -150)]);
    await nightlyEarning({ date: '2026-01-31' });

    // A February storm, and the second policy's claim in it.
    on('2026-02-03');
    catId = ok(await service.call(`${C}/declare_catastrophe`, { title: 'February nor\'easter', states: ['NY'], from: '2026-02-01', to: '2026-02-05' })).id;
    storm = await reportClaim(second, '2026-02-02', '2026-02-03', catId);
    expect((await getClaim(storm))?.catastropheId).toBe(catId);
    await moneyMove(storm, '2026-02-03', [loss('reserve_change', 8000)]);
    await nightlyEarning({ date: '2026-02-28' });

    // March: the worked claim's subrogation recovery (1,000.00 of it the insured's deductible), the storm claim paid in part.
    await moneyMove(storm, '2026-03-05', [loss('paid', 3000), loss('reserve_change', -3000)]);
    await moneyMove(storm, '2026-03-10', [loss('check_cleared', 3000)]);
    await moneyMove(worked, '2026-03-16', [loss('recovered', 4000), loss('deductible_reimbursed', 1000)]);
    await moneyMove(worked, '2026-03-20', [loss('check_cleared', 1000)]);
    await nightlyEarning({ date: '2026-03-31' });
    on('2026-04-02');

    const quarter = await losses({ from_month: '2026-01', to_month: '2026-03', group_by: ['agency'], agency_id: agency });
    expect(quarter.earned_premium_basis).toContain('catastrophe');
    const lines = quarter.lines as Line[];
    expect(lines.map((line) => [line.month, line.kind])).toEqual([['2026-01', 'current'], ['2026-02', 'current'], ['2026-03', 'current']]);
    // Each month's premium report earned is the loss line's earned premium.
    const premiumLines = (await premium({ from_month: '2026-01', to_month: '2026-03', group_by: ['agency'], agency_id: agency })).lines as Line[];
    for (const line of lines) {
      const earned = premiumLines.find((candidate) => candidate.month === line.month && candidate.kind === line.kind)!.earned;
      expect(line.earned_premium).toBe(earned);
      expect(line.earned_premium).toBeGreaterThan(0);
      expect(cents(line.case_reserves_end)).toBe(cents(line.case_reserves_start) + cents(line.reserve_change_loss) + cents(line.reserve_change_expense));
      expect(cents(line.incurred_loss)).toBe(cents(line.paid_loss) + cents(line.reserve_change_loss) - cents(line.recoveries));
      expect(cents(line.incurred_total)).toBe(cents(line.incurred_loss) + cents(line.incurred_expense));
      expect(line.loss_ratio).toBe(round4(cents(line.incurred_loss) / cents(line.earned_premium)));
    }
    const [january, february, march] = lines;
    expect(january).toMatchObject({ paid_loss: 11450, paid_expense: 650, case_reserves_start: 0, case_reserves_end: 0, recoveries: 0, incurred_loss: 11450, incurred_expense: 650, incurred_total: 12100 });
    expect(february).toMatchObject({ paid_loss: 0, case_reserves_start: 0, case_reserves_end: 8000, incurred_total: 8000 });
    expect(march).toMatchObject({ paid_loss: 3000, case_reserves_start: 8000, case_reserves_end: 5000, recoveries: 4000, deductible_reimbursed: 1000, incurred_loss: -4000 });
    // The month's start is the month before's end.
    expect(february.case_reserves_start).toBe(january.case_reserves_end);
    expect(march.case_reserves_start).toBe(february.case_reserves_end);
  }, 240_000);

  it('groups by catastrophe (the worked claim\'s 12,100.00 incurred, net 8,100.00 after the recovery) and by accident year', async () => {
    on('2026-04-02');
    const byCat = (await losses({ from_month: '2026-01', to_month: '2026-03', group_by: ['catastrophe'], agency_id: agency })).lines as Line[];
    const notCat = byCat.filter((line) => line.group.catastrophe === '-');
    expect(notCat.map((line) => [line.month, line.incurred_total])).toEqual([['2026-01', 12100], ['2026-03', -4000]]);
    expect(notCat.reduce((total, line) => total + cents(line.incurred_total), 0)).toBe(cents(8100));
    expect(notCat.reduce((total, line) => total + cents(line.paid_loss) - cents(line.recoveries), 0)).toBe(cents(7450));
    expect(byCat.filter((line) => line.group.catastrophe === catId).map((line) => [line.month, line.case_reserves_end, line.incurred_loss])).toEqual([['2026-02', 8000, 8000], ['2026-03', 5000, 0]]);
    // A catastrophe's ratio is its points of the whole: the lines of a month add up to the month's ratio.
    const whole = (await losses({ from_month: '2026-03', to_month: '2026-03', group_by: [], agency_id: agency })).lines as Line[];
    const marchByCat = byCat.filter((line) => line.month === '2026-03');
    expect(marchByCat.every((line) => line.earned_premium === whole[0].earned_premium)).toBe(true);
    expect(marchByCat.reduce((total, line) => total + cents(line.incurred_loss), 0)).toBe(cents(whole[0].incurred_loss));

    const byYear = (await losses({ from_month: '2026-01', to_month: '2026-03', group_by: ['accident_year'], agency_id: agency, format: 'csv' }));
    expect((byYear.lines as Line[]).map((line) => [line.month, line.group.accident_year, line.incurred_total])).toEqual([
      ['2026-01', '2025', 12100], ['2026-02', '2026', 8000], ['2026-03', '2025', -4000], ['2026-03', '2026', 0],
    ]);
    expect((byYear.csv as string).split('\n')[0]).toMatch(/^month,kind,accident_year,paid_loss,/);
    expect((byYear.csv as string).trim().split('\n')).toHaveLength(5);
  }, 60_000);

  it('carries the losses on the premium report\'s lines', async () => {
    on('2026-04-02');
    const lines = (await premium({ from_month: '2026-01', to_month: '2026-03', group_by: ['agency'], agency_id: agency, format: 'csv' }));
    expect((lines.lines as Line[]).map((line) => [line.month, line.paid_loss, line.paid_expense, line.case_reserves_end, line.recoveries, line.incurred_loss])).toEqual([
      ['2026-01', 11450, 650, 0, 0, 11450], ['2026-02', 0, 0, 8000, 0, 8000], ['2026-03', 3000, 0, 5000, 4000, -4000],
    ]);
    for (const line of lines.lines as Line[]) expect(line.loss_ratio).toBe(round4(cents(line.incurred_loss) / cents(line.earned)));
    expect((lines.csv as string).split('\n')[0]).toMatch(/policies_in_force_end,paid_loss,paid_expense,case_reserves_end,recoveries,incurred_loss,loss_ratio$/);
    const byRate = (await premium({ from_month: '2026-01', to_month: '2026-01', group_by: ['rate_version'], agency_id: agency })).lines as Line[];
    expect(byRate.every((line) => line.paid_loss === null && line.loss_ratio === null)).toBe(true);
  }, 60_000);

  it('balances the journal every day; its trial balance holds the reserves, no checks payable, and the incurred', async () => {
    on('2026-04-02');
    const journal = ok(await service.call(`${R}/journal`, { from_date: '2026-01-01', to_date: '2026-03-31' }));
    for (const day of journal.days) expect(day).toMatchObject({ balanced: true, debits: day.credits });
    const lossDays = journal.days.filter((day: { lines: Array<{ account: string }> }) => day.lines.some((line) => line.account === 'Loss and LAE reserves' || line.account === 'Claim checks payable'));
    expect(lossDays.map((day: { date: string }) => day.date)).toEqual(['2026-01-02', '2026-01-05', '2026-01-12', '2026-01-14', '2026-01-20', '2026-01-30', '2026-02-03', '2026-03-05', '2026-03-10', '2026-03-16', '2026-03-20']);
    const balance = (name: string) => cents(journal.trial_balance.accounts.find((account: { account: string }) => account.account === name).balance);
    // This service holds only this quarter's claims: the books' whole figures are the quarter's.
    const all = (await losses({ from_month: '2026-01', to_month: '2026-03', group_by: [] })).lines as Line[];
    const total = (pick: (line: Line) => number) => all.reduce((sum, line) => sum + cents(pick(line)), 0);
    expect(-balance('Loss and LAE reserves')).toBe(cents(all.at(-1)!.case_reserves_end));
    expect(-balance('Loss and LAE reserves')).toBe(cents(5000));
    expect(balance('Claim checks payable')).toBe(0);
    expect(balance('Losses incurred')).toBe(total((line) => line.incurred_loss));
    expect(balance('Loss adjustment expense')).toBe(total((line) => line.incurred_expense));
    expect(balance('Losses incurred') + balance('Loss adjustment expense')).toBe(cents(12100 + 8000 - 4000));
    expect(journal.trial_balance.accounts.reduce((sum: number, account: { balance: number }) => sum + cents(account.balance), 0)).toBe(0);
  }, 60_000);

  it('keeps a closed month\'s loss figures: money dated back into it lands in the open month as a prior-period adjustment', async () => {
    on('2026-04-02');
    const before = await losses({ from_month: '2026-01', to_month: '2026-03', group_by: ['catastrophe'], agency_id: agency });
    const closedJanuary = ok(await service.call(`${R}/close_month`, { month: '2026-01' }));
    expect(closedJanuary.loss_figures).toEqual([expect.objectContaining({ month: '2026-01', incurred_total: 12100 })]);
    ok(await service.call(`${R}/close_month`, { month: '2026-02' }));
    // The storm claim's expense reserve, decided on 2026-02-27 and committed after February closed.
    await moneyMove(storm, '2026-02-27', [expense('reserve_change', 500)], '2026-04-02');
    const after = await losses({ from_month: '2026-01', to_month: '2026-03', group_by: ['catastrophe'], agency_id: agency });
    const ofMonths = (report: { lines: Line[] }, months: string[]) => report.lines.filter((line) => months.includes(line.month));
    expect(ofMonths(after, ['2026-01', '2026-02'])).toEqual(ofMonths(before, ['2026-01', '2026-02']));
    const adjustment = after.lines.find((line: Line) => line.month === '2026-03' && line.kind === 'prior_period_adjustments');
    expect(adjustment).toMatchObject({ group: { catastrophe: catId }, reserve_change_expense: 500, case_reserves_start: 8000, case_reserves_end: 8500, incurred_expense: 500 });
    const current = after.lines.find((line: Line) => line.month === '2026-03' && line.kind === 'current' && line.group.catastrophe === catId);
    expect(current).toMatchObject({ case_reserves_start: 8500, case_reserves_end: 5500 });
    // The report from the closing on: the balances carried in are the closing's.
    const fromClose = await losses({ from_month: '2026-03', to_month: '2026-03', group_by: ['catastrophe'], agency_id: agency });
    expect(fromClose.lines).toEqual(ofMonths(after, ['2026-03']));
    const journal = ok(await service.call(`${R}/journal`, { from_date: '2026-04-01', to_date: '2026-04-02' }));
    for (const day of journal.days) expect(day).toMatchObject({ balanced: true });
  }, 60_000);
});
