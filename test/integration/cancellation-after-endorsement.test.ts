/**
 * A cancellation after an endorsement returns, for each revision in force after the cancel
 * date, its items' unearned premium for those days (issue 32): the README's endorsement (Dwelling
 * raised to 300,000 with 183 of 365 days left, annual 982.55, +78.18) cancelled with 92 days left
 * returns 262.01 − 26.20 + 8.82 + 3.02 = 247.65, and the account is credited exactly that
 * (issue 44): 826.62 + 25.00 + 78.18 = 929.80 billed, less 247.65, leaves 682.15, the written
 * premium 657.15 and the 25.00 fee. A reinstatement reverses exactly what was returned. After
 * every move the books' billed total is the written premium plus fees.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadAccount } from '../../shared/billing/store.js';
import { clock } from '../../shared/platform/clock.js';
import { addDays, daysBetween, todayIso } from '../../shared/platform/dates.js';
import { newAgency } from '../support/agencies.js';
import { issueWorkedExample } from '../support/worked-example.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';

const P = '/api/v2/policies';
const INSUREDS_REQUEST = 'b6206c09-8deb-48e8-8323-7232d9464797';
// A fixed past term of 365 days, so that the figures do not depend on the day the test runs.
const EFFECTIVE = '2025-03-01';
const EXPIRATION = '2026-03-01';
let service: TestService;

const details = async (revisionId: string) => ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: revisionId }));
const history = async (policyId: string) => ok(await service.call(`${P}/retrieve_account_history`, { policy_id: policyId })).records as Array<Record<string, any>>;
const cents = (amount: number) => Math.round(amount * 100);

/** The account's stored balance, in cents. */
async function balanceCents(policyId: string, termId: string): Promise<number> {
  return (await loadAccount(policyId, termId))!.account.balanceCents;
}

/** The books of one agency from the term's first month to today's: written premium, fees and taxes, billed, in cents. */
async function booksOf(agencyId: string): Promise<{ written: number; fees: number; billed: number }> {
  const report = ok(await service.call('/api/v2/reports/premium', { from_month: EFFECTIVE.slice(0, 7), to_month: todayIso(clock.now()).slice(0, 7), agency_id: agencyId }));
  const lines = report.lines as Array<{ written: { total: number }; fees_and_taxes: number; billed: number }>;
  return {
    written: lines.reduce((total, line) => total + cents(line.written.total), 0),
    fees: lines.reduce((total, line) => total + cents(line.fees_and_taxes), 0),
    billed: lines.reduce((total, line) => total + cents(line.billed), 0),
  };
}

/** The README's endorsement on the policy, dated `revisionDate`: Dwelling to 300,000. */
async function endorseDwelling(policyId: string, revisionDate: string) {
  const { revision_id: revisionId } = ok(await service.call(`${P}/new_revision`, { policy_id: policyId, revision_date: revisionDate }));
  const dwelling = (await details(revisionId)).items.find((item: { name: string }) => item.name === 'Dwelling');
  ok(await service.call(`${P}/update_rating_information`, { revision_id: revisionId, items: [{ id: dwelling.id, limit: 300000 }] }));
  ok(await service.call(`${P}/rate_revision`, { revision_id: revisionId }));
  return ok(await service.call(`${P}/issue`, { issue_info: { policy_id: policyId, revision_id: revisionId } }));
}

beforeAll(async () => {
  service = await startTestService();
});
afterEach(() => {
  clock.startAt(undefined);
});
afterAll(async () => {
  await service?.stop();
});

describe('cancellation after an endorsement', () => {
  it.each([
    ['past-dated (the whole term behind today)', false],
    ['decided on its own day (the clock on the endorsement day, then on the cancel date)', true],
  ])('%s: credits the 247.65 it says, leaving 682.15 (written 657.15 + 25.00 fee); a reinstatement gives it back to the cent', async (_, onTheDay) => {
    const agency = await newAgency();
    if (onTheDay) clock.startAt(EFFECTIVE);
    const policy = await issueWorkedExample(service, 'Pat Example', EFFECTIVE, { agencyId: agency });
    const expiration = ok(await service.call(`${P}/retrieve_policy`, { policy_id: policy.policyId })).active_policy_term.expiration_date;
    expect(expiration).toBe(EXPIRATION);
    expect(daysBetween(EFFECTIVE, expiration)).toBe(365);
    expect(await balanceCents(policy.policyId, policy.termId)).toBe(85162);
    expect(await booksOf(agency)).toEqual({ written: 82662, fees: 2500, billed: 85162 });

    if (onTheDay) clock.startAt(addDays(expiration, -183));
    expect(await endorseDwelling(policy.policyId, addDays(expiration, -183))).toMatchObject({ annual_premium: 982.55 });
    const endorsed = await history(policy.policyId);
    expect(endorsed[0]).toMatchObject({ type: 'Endorsement', amount: 78.18, balance: 929.8 });
    expect(await balanceCents(policy.policyId, policy.termId)).toBe(92980);
    expect(await booksOf(agency)).toEqual({ written: 90480, fees: 2500, billed: 92980 });

    const cancelDate = addDays(expiration, -92);
    if (onTheDay) clock.startAt(cancelDate);
    const answer = await service.call(`${P}/cancel_policy`, { policy_id: policy.policyId, cancel_date: cancelDate, cancel_reason_id: INSUREDS_REQUEST });
    expect(answer.body).toMatchObject({ success: true, message: `Policy ${policy.policyNumber} cancelled effective ${cancelDate} (Insured's Request); return premium 247.65` });
    const rows = await history(policy.policyId);
    expect(rows.map((row) => [row.type, row.amount, row.balance])).toEqual([
      ['Return Premium', -247.65, 682.15],
      ['Cancellation', 0, 929.8],
      ['Endorsement', 78.18, 929.8],
      ['Invoice', 851.62, 851.62],
    ]);
    expect(rows[0]).toMatchObject({ summary: 'Return premium 247.65' });
    expect(await balanceCents(policy.policyId, policy.termId)).toBe(68215);
    expect(await booksOf(agency)).toEqual({ written: 65715, fees: 2500, billed: 68215 });

    ok(await service.call(`${P}/reinstate_policy`, { policy_id: policy.policyId, fee_action: 'waive' }));
    const after = await history(policy.policyId);
    expect([after[0].type, after[0].amount, after[0].balance]).toEqual(['Reinstatement', 247.65, 929.8]);
    expect(await balanceCents(policy.policyId, policy.termId)).toBe(92980);
    expect(await booksOf(agency)).toEqual({ written: 90480, fees: 2500, billed: 92980 });
  });
});
