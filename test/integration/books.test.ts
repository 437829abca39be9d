/**
 * The books (issue 32): a simulated year of moves and payments, read back through the premium
 * report and the journal. For every month and group unearned and receivable reconcile, the
 * report's billed, collected and refunded are the sums of the account histories, each journal
 * day balances and the trial balance at a month's end is the report's; a closed month keeps its
 * figures when a move is dated back into it (the adjustment shows in the open month).
 * The clock is moved to each day of the story: nothing depends on the day the test runs.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { handler as nightlyEarning } from '../../events/schedules/nightly_earning.js';
import { clock } from '../../shared/platform/clock.js';
import { agentOf } from '../support/documents.js';
import { UNDERWRITING_QUESTION, BILLING_SCHEDULE } from '../support/reference-product.js';
import { newAgency } from '../support/agencies.js';
import { issueWorkedExample } from '../support/worked-example.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';

/** The reference product's Monthly schedule: ten installments, the first billed at issue. */
const MONTHLY = BILLING_SCHEDULE.MONTHLY;
const P = '/api/v2/policies';
const B = '/api/v2/billing';
const R = '/api/v2/reports';
const INSUREDS_REQUEST = 'b6206c09-8deb-48e8-8323-7232d9464797';
const ALL = ['state', 'line', 'policy_type', 'agency', 'rate_version'];
let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});
afterEach(() => clock.startAt(undefined));
afterAll(async () => {
  await service?.stop();
});

const cents = (amount: number) => Math.round(amount * 100);
const on = (day: string) => clock.startAt(day);

/** The worked example (826.62 premium, 25.00 fee) for an agency, issued on its effective day (the clock moved there). */
async function issued(agencyId: string, name: string, effective: string, scheduleId?: string) {
  on(effective);
  return issueWorkedExample(service, name, effective, { agencyId, billingScheduleId: scheduleId });
}

async function pay(policy: { policyNumber: string }, day: string, amount: number) {
  on(day);
  ok(await service.call('/api/v1/payments/makeManualPolicyPayment', { json_dict: { policyNumber: policy.policyNumber, amount: amount.toFixed(2), depositDate: day } }));
}

async function endorseDwelling(policy: { policyId: string }, day: string, limit: number) {
  on(day);
  const { revision_id: revisionId } = ok(await service.call(`${P}/new_revision`, { policy_id: policy.policyId, revision_date: day }));
  const dwelling = ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: revisionId })).items.find((item: { name: string }) => item.name === 'Dwelling');
  ok(await service.call(`${P}/update_rating_information`, { revision_id: revisionId, items: [{ id: dwelling.id, limit }] }));
  ok(await service.call(`${P}/rate_revision`, { revision_id: revisionId }));
  return ok(await service.call(`${P}/issue`, { issue_info: { policy_id: policy.policyId, revision_id: revisionId } }));
}

const history = async (policyId: string) => ok(await service.call(`${P}/retrieve_account_history`, { policy_id: policyId, filter_dict: {} })).records as Array<{ type: string; date: string; amount: number }>;
const report = async (body: Record<string, unknown>, apiKey?: string) => service.call(`${R}/premium`, body, apiKey ? { apiKey } : {});

const MONTHS = Array.from({ length: 12 }, (_, index) => `2025-${String(index + 1).padStart(2, '0')}`);
const monthEnd = (month: string) => new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5)), 0)).toISOString().slice(0, 10);

describe('the books over a simulated year', () => {
  it('reconciles every month and group, equals the account histories, and the journal balances with the trial balance on the report', async () => {
    const agency = await newAgency();
    // A: monthly installments, three paid then missed; an endorsement up and one down; renewed.
    const a = await issued(agency, 'Ann Year', '2025-01-15', MONTHLY);
    // B: paid in full, cancelled at the insured's request, its credit refunded by check.
    const b = await issued(agency, 'Ben Year', '2025-02-01');
    await pay(b, '2025-02-05', 851.62);
    // C: paid in full, cancelled and reinstated without lapse.
    const c = await issued(agency, 'Cy Year', '2025-03-01');
    await pay(c, '2025-03-03', 851.62);
    // Each installment paid as it is billed (the latest invoice the history shows that day).
    const latestInvoice = async (day: string) => {
      on(day);
      return (await history(a.policyId)).filter((row) => row.type === 'Invoice').sort((x, y) => y.date.localeCompare(x.date))[0].amount;
    };
    await pay(a, '2025-01-20', await latestInvoice('2025-01-20'));
    await nightlyEarning({ date: '2025-01-31' });
    await pay(a, '2025-02-20', await latestInvoice('2025-02-20'));
    await nightlyEarning({ date: '2025-02-28' });
    await pay(a, '2025-03-20', await latestInvoice('2025-03-20'));
    await nightlyEarning({ date: '2025-03-31' });
    const march = ok(await report({ from_month: '2025-03', to_month: '2025-03', group_by: ALL, agency_id: agency }));
    await nightlyEarning({ date: '2025-03-31' });
    expect(ok(await report({ from_month: '2025-03', to_month: '2025-03', group_by: ALL, agency_id: agency }))).toEqual(march);

    const up = await endorseDwelling(a, '2025-04-10', 300000);
    expect(up.additional_premium).toBeGreaterThan(0);
    await nightlyEarning({ date: '2025-04-30' });
    on('2025-05-10');
    ok(await service.call(`${P}/cancel_policy`, { policy_id: c.policyId, cancel_date: '2025-05-10', cancel_reason_id: INSUREDS_REQUEST }));
    await nightlyEarning({ date: '2025-05-15' });
    on('2025-05-20');
    ok(await service.call(`${P}/reinstate_policy`, { policy_id: c.policyId, fee_action: 'waive' }));
    await nightlyEarning({ date: '2025-05-31' });
    on('2025-06-15');
    ok(await service.call(`${P}/cancel_policy`, { policy_id: b.policyId, cancel_date: '2025-06-15', cancel_reason_id: INSUREDS_REQUEST }));
    const { refunds } = ok(await service.call(`${B}/list_refunds`, { policy_id: b.policyId }));
    expect(refunds).toHaveLength(1);
    on('2025-06-20');
    ok(await service.call(`${B}/approve_refund`, { refund_id: refunds[0].refund_id }));
    ok(await service.call(`${B}/mark_refund_issued`, { refund_id: refunds[0].refund_id, check_number: '5001' }));
    await nightlyEarning({ date: '2025-06-30' });
    const down = await endorseDwelling(a, '2025-07-01', 250000);
    expect(down.additional_premium).toBeLessThan(0);
    for (const month of ['2025-07', '2025-08', '2025-09', '2025-10', '2025-11']) await nightlyEarning({ date: monthEnd(month) });
    on('2025-12-01');
    expect(ok(await service.call(`${P}/process_renewals`, { policy_number: a.policyNumber, renew_date: '2025-12-01' }))).toMatchObject({ decision: 'renewed' });
    await nightlyEarning({ date: '2025-12-31' });
    on('2026-01-05');

    const year = ok(await report({ from_month: '2025-01', to_month: '2025-12', group_by: ALL, agency_id: agency }));
    const lines = year.lines as Array<Record<string, any>>;
    expect(lines.every((line) => line.kind === 'current' && line.group.agency === agency)).toBe(true);
    // Unearned and receivable reconcile in every month and group, and each month starts where the one before ended.
    const ended = new Map<string, { unearned: number; receivable: number }>();
    for (const line of lines) {
      expect(cents(line.unearned_end)).toBe(cents(line.unearned_start) + cents(line.written.total) - cents(line.earned));
      expect(cents(line.receivable_end)).toBe(cents(line.receivable_start) + cents(line.billed) - cents(line.collected) + cents(line.refunded));
      const key = JSON.stringify(line.group);
      expect(cents(line.unearned_start)).toBe(ended.get(key)?.unearned ?? 0);
      expect(cents(line.receivable_start)).toBe(ended.get(key)?.receivable ?? 0);
      ended.set(key, { unearned: cents(line.unearned_end), receivable: cents(line.receivable_end) });
    }
    // The report's billed, collected and refunded are the sums of the three account histories, month by month.
    const rows = (await Promise.all([a, b, c].map((policy) => history(policy.policyId)))).flat();
    const sumOf = (month: string, pick: (row: { type: string; amount: number }) => number) => rows.filter((row) => row.date.startsWith(month)).reduce((total, row) => total + cents(pick(row)), 0);
    for (const month of MONTHS) {
      const ofMonth = lines.filter((line) => line.month === month);
      const total = (pick: (line: Record<string, any>) => number) => ofMonth.reduce((sum, line) => sum + cents(pick(line)), 0);
      expect({ month, billed: total((line) => line.billed), collected: total((line) => line.collected), refunded: total((line) => line.refunded) }).toEqual({
        month,
        billed: sumOf(month, (row) => (['Payment', 'NSF Reversal', 'Refund'].includes(row.type) ? 0 : row.amount)),
        collected: sumOf(month, (row) => (['Payment', 'NSF Reversal'].includes(row.type) ? -row.amount : 0)),
        refunded: sumOf(month, (row) => (row.type === 'Refund' ? row.amount : 0)),
      });
    }
    const byMonth = (month: string) => lines.filter((line) => line.month === month);
    const sum = (list: Array<Record<string, any>>, pick: (line: Record<string, any>) => number) => list.reduce((total, line) => total + cents(pick(line)), 0);
    expect(sum(lines, (line) => line.written.new_business)).toBe(3 * 82662);
    expect(sum(byMonth('2025-05'), (line) => line.written.cancellations)).toBe(-sum(byMonth('2025-05'), (line) => line.written.reinstatements));
    expect(sum(byMonth('2025-06'), (line) => line.refunded)).toBeGreaterThan(0);
    expect(sum(byMonth('2025-12'), (line) => line.written.renewals)).toBeGreaterThan(0);
    expect(byMonth('2025-12').reduce((total, line) => total + line.policies_in_force_end, 0)).toBe(2);
    expect(byMonth('2025-06').reduce((total, line) => total + line.policies_in_force_end, 0)).toBe(2);
    expect(byMonth('2025-04').reduce((total, line) => total + line.policies_in_force_end, 0)).toBe(3);
    // The CSV says the same.
    const csv = ok(await report({ from_month: '2025-01', to_month: '2025-12', group_by: ['agency'], format: 'csv', agency_id: agency })).csv as string;
    expect(csv.split('\n')[0]).toContain('month,kind,agency,written_new_business');
    expect(csv.trim().split('\n')).toHaveLength(13);

    // The journal: every day balances; the trial balance at June's end is the report's June.
    const journal = ok(await service.call(`${R}/journal`, { from_date: '2025-06-01', to_date: '2025-06-30' }));
    expect(journal.days.length).toBeGreaterThan(0);
    for (const day of journal.days) expect(day).toMatchObject({ balanced: true, debits: day.credits });
    const june = ok(await report({ from_month: '2025-06', to_month: '2025-06', group_by: [] })).lines.filter((line: { kind: string }) => line.kind === 'current');
    const balance = (name: string) => cents(journal.trial_balance.accounts.find((account: { account: string }) => account.account === name).balance);
    expect(balance('Premium receivable')).toBe(sum(june, (line) => line.receivable_end));
    expect(-balance('Unearned premium')).toBe(sum(june, (line) => line.unearned_end));
    const allMonths = ok(await report({ from_month: '2024-01', to_month: '2025-06', group_by: [] })).lines;
    expect(-balance('Earned premium')).toBe(sum(allMonths, (line) => line.earned));
    expect(Object.values(journal.trial_balance.accounts).reduce((total: number, account: any) => total + cents(account.balance), 0)).toBe(0);
  }, 180_000);
});

describe('closing a month', () => {
  it('keeps a closed month as it was; a move dated back into it lands in the open month as a prior-period adjustment', async () => {
    const agency = await newAgency();
    await issued(agency, 'Cleo Close', '2024-02-10');
    await nightlyEarning({ date: '2024-02-29' });
    on('2024-03-05');
    const before = ok(await report({ from_month: '2024-02', to_month: '2024-02', group_by: ['agency'], agency_id: agency }));
    const closed = ok(await service.call(`${R}/close_month`, { month: '2024-02' }));
    expect(closed).toMatchObject({ month: '2024-02', closed_through: '2024-02' });
    const again = await service.call(`${R}/close_month`, { month: '2024-02' });
    expect(again.body.success).toBe(false);
    expect(JSON.stringify(again.body.messages)).toContain('month');

    // Issued on 2024-03-05, effective 2024-02-20 (in the closed month): its in-force day and its invoice land in March, named as adjustments.
    const [year, mm, dd] = '2024-02-20'.split('-');
    const quote = ok(await service.call(`${P}/create_quote_extended`, {
      quote_info: {
        effective_date: `${mm}/${dd}/${year}`, line_name: 'Homeowners', policy_type_name: 'Homeowner - HO3', named_insureds: [{ name: 'Dee Backdate' }], agency_id: agency,
        underwriting_questions: [{ questionId: UNDERWRITING_QUESTION.LOSSES_IN_PAST_3_YEARS, yesNoAnswer: 'no' }],
        locations: [{ address_zip: '10001' }],
        items: [{ name: 'Dwelling', limit: 250000, questions: { 'Construction Type': 'Frame', 'Protection Class': '3' } }],
      },
    }));
    ok(await service.call(`${P}/bind`, { bind_info: { policy_id: quote.policy_id } }));
    ok(await service.call(`${P}/issue`, { issue_info: { policy_id: quote.policy_id } }));
    await nightlyEarning({ date: '2024-03-05' });

    const after = ok(await report({ from_month: '2024-02', to_month: '2024-03', group_by: ['agency'], agency_id: agency }));
    expect(after.lines.filter((line: { month: string }) => line.month === '2024-02')).toEqual(before.lines);
    const adjustment = after.lines.find((line: { month: string; kind: string }) => line.month === '2024-03' && line.kind === 'prior_period_adjustments');
    expect(adjustment).toMatchObject({ billed: 851.62, policies_in_force_end: 2 });
    expect(adjustment.earned).toBeGreaterThan(0);
    const current = after.lines.find((line: { month: string; kind: string }) => line.month === '2024-03' && line.kind === 'current');
    expect(current.written.new_business).toBe(826.62);
    expect(cents(current.unearned_start)).toBe(cents(adjustment.unearned_end));
  }, 60_000);
});

describe('a close and the postings under way', () => {
  it('lets nothing land in a month once its close committed: a posting settled before the close is refused by the fence, and lands in the open month when settled again', async () => {
    const { booksCounterWrites, closeState } = await import('../../shared/books/store.js');
    const { nextMonth } = await import('../../shared/books/rules.js');
    const { RecordChangedError, runTransaction, settledWrites } = await import('../../shared/platform/transactions.js');
    const agency = await newAgency();
    const group = { state: 'NY', line: 'Homeowners', policyType: 'Homeowner - HO3', agency, rateVersion: '-' };
    on('2024-05-02');
    const before = await closeState(true);
    // The month the next close closes (months close in order), ended on the clock of the story.
    const month = before.closedThrough ? nextMonth(before.closedThrough) : '2024-04';
    expect(month <= '2024-04').toBe(true);
    on(`${nextMonth(month)}-02`);
    const posting = () => booksCounterWrites({ shardBy: `policy-${agency}`, group, date: `${month}-20`, counters: { billed: 100 } });
    // Settled on the months as they were before the close: it lands in the month, guarded by the fence of that state.
    const stale = await settledWrites(posting());
    expect(stale.guards.size).toBe(1);
    expect(stale.writes.some((write) => write.Update?.Key?.pk === `BOOKS#MONTH#${month}`)).toBe(true);

    ok(await service.call(`${R}/close_month`, { month }));
    const closing = ok(await report({ from_month: month, to_month: month, group_by: ['agency'], agency_id: agency }));

    // Sent as settled before the close: refused, nothing written.
    const refused = await runTransaction(stale.writes, { label: 'the stale posting' }).catch((error) => error);
    expect(refused).toBeInstanceOf(RecordChangedError);
    expect(refused.key).toEqual({ pk: `BOOKS#FENCE#${before.closedThrough ?? 'NONE'}`, sk: expect.stringMatching(/^SHARD#\d\d$/) });
    // The same posting given to the runner: settled afresh, it lands in the open month as an adjustment.
    await runTransaction(posting(), { label: 'the posting' });
    const after = ok(await report({ from_month: month, to_month: nextMonth(month), group_by: ['agency'], agency_id: agency }));
    expect(after.lines.filter((line: { month: string }) => line.month === month)).toEqual(closing.lines);
    expect(after.lines.find((line: { month: string; kind: string }) => line.month === nextMonth(month) && line.kind === 'prior_period_adjustments')).toMatchObject({ billed: 1 });
  }, 60_000);
});

describe('who reads the report, and what it refuses', () => {
  it('shows an agent his agency only, refuses another agency\'s lines, and names a bad month or group_by', async () => {
    const mine = await newAgency();
    const theirs = await newAgency();
    await issued(mine, 'Ida Mine', '2025-08-01');
    await issued(theirs, 'Ted Theirs', '2025-08-02');
    on('2025-08-10');
    const agent = await agentOf([mine]);
    const seen = ok(await report({ from_month: '2025-08', to_month: '2025-08', group_by: ['agency'] }, agent.apiKey));
    expect(seen.lines.map((line: { group: { agency: string } }) => line.group.agency)).toEqual([mine]);
    const refused = await report({ from_month: '2025-08', to_month: '2025-08', group_by: ['agency'], agency_id: theirs }, agent.apiKey);
    expect(refused.body.success).toBe(false);
    expect(JSON.stringify(refused.body)).not.toContain('written');
    expect((await service.call(`${R}/close_month`, { month: '2025-07' }, { apiKey: agent.apiKey })).status).toBe(403);
    expect((await service.call(`${R}/journal`, { from_date: '2025-08-01', to_date: '2025-08-10' }, { apiKey: agent.apiKey })).body.success).toBe(false);

    const badMonth = await report({ from_month: '2025-13', to_month: '2025-08' });
    expect(badMonth.body.success).toBe(false);
    expect(JSON.stringify(badMonth.body.messages)).toContain('from_month');
    const badGroup = await report({ from_month: '2025-08', to_month: '2025-08', group_by: ['county'] });
    expect(badGroup.body.success).toBe(false);
    expect(JSON.stringify(badGroup.body.messages)).toContain('group_by');
    const backwards = await report({ from_month: '2025-08', to_month: '2025-07' });
    expect(JSON.stringify(backwards.body.messages)).toContain('to_month');
  }, 60_000);
});

describe('the closed months a posting settles on', () => {
  it('writes a month\'s marker with its first posting only, and sees a close made here at once', async () => {
    const { booksCounterWrites, closeState } = await import('../../shared/books/store.js');
    const { nextMonth } = await import('../../shared/books/rules.js');
    const { runTransaction, settledWrites } = await import('../../shared/platform/transactions.js');
    const agency = await newAgency();
    const group = { state: 'NY', line: 'Homeowners', policyType: 'Homeowner - HO3', agency, rateVersion: '-' };
    const markers = (writes: Array<{ Update?: { Key?: Record<string, unknown> } }>) => writes.filter((write) => String(write.Update?.Key?.sk ?? '').startsWith('MONTH#'));
    const posting = (date: string) => booksCounterWrites({ shardBy: `policy-${agency}`, group, date, counters: { billed: 100 } });
    // A month no posting has reached yet: far ahead of every other story of this file.
    const month = '2031-07';
    on(`${month}-03`);
    expect((await closeState(true)).months.has(month)).toBe(false);
    expect(markers((await settledWrites(posting(`${month}-03`))).writes)).toHaveLength(1);
    await runTransaction(posting(`${month}-03`), { label: 'the first posting' });
    // The memo took in the marker its commit wrote: the next posting writes none, and the month is there for readers.
    expect(markers((await settledWrites(posting(`${month}-04`))).writes)).toHaveLength(0);
    expect((await closeState(true)).months.has(month)).toBe(true);

    // A close committed by this process is what the next posting settles on (the memo read just now is not).
    const closedThrough = (await closeState(true)).closedThrough;
    const toClose = closedThrough ? nextMonth(closedThrough) : '2024-01';
    expect(toClose < month).toBe(true);
    on(`${nextMonth(toClose)}-02`);
    ok(await service.call(`${R}/close_month`, { month: toClose }));
    const settled = await settledWrites(posting(`${toClose}-10`));
    expect(settled.writes.some((write) => write.Update?.Key?.pk === `BOOKS#MONTH#${nextMonth(toClose)}` && String(write.Update?.Key?.sk).startsWith('AGG#adjustment#'))).toBe(true);
  }, 60_000);
});
