/**
 * Agency commissions as a client sees them: the reference product's worked example earning
 * 123.99 at issue and charged back 108.99 on a cancellation 30 days later (15.00 kept), restored
 * on reinstatement; an agency's schedule and issue's override deciding a new policy's rate; the
 * monthly statement as JSON and CSV; and an agent refused another agency's statement.
 * The clock is pinned: no day-of-run dependence.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clock } from '../../shared/platform/clock.js';
import { addDays } from '../../shared/platform/dates.js';
import { agentOf } from '../support/documents.js';
import { newAgency } from '../support/agencies.js';
import { issueWorkedExample } from '../support/worked-example.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';

const P = '/api/v2/policies';
const B = '/api/v2/billing';
const INSUREDS_REQUEST = 'b6206c09-8deb-48e8-8323-7232d9464797';
const TODAY = '2026-11-28';
const month = TODAY.slice(0, 7);
let service: TestService;

beforeAll(async () => {
  clock.startAt(TODAY);
  service = await startTestService();
});
afterAll(async () => {
  await service?.stop();
  clock.startAt(undefined);
});

/** The worked example written for an agency: the Administrator quotes for it (a past effective date); an agent (his key) quotes for his own. */
const issuedForAgency = (agentKey: string | { agencyId: string }, name: string, issueInfo: Record<string, unknown> = {}, effective = TODAY) =>
  issueWorkedExample(service, name, effective, typeof agentKey === 'string' ? { apiKey: agentKey, issueInfo } : { agencyId: agentKey.agencyId, issueInfo });

const statement = async (agencyId: string, format = 'json', apiKey?: string, ofMonth = month) =>
  service.call(`${B}/retrieve_commission_statement`, { agency_id: agencyId, month: ofMonth, format }, apiKey ? { apiKey } : {});

describe('agency commissions', () => {
  it('earns 123.99 at issue, charges back 108.99 on a cancellation 30 days later (15.00 kept), and restores it on reinstatement', async () => {
    const agency = crypto.randomUUID();
    const agent = await agentOf([agency]);
    const policy = await issuedForAgency(agent.apiKey, 'Pat Example');

    const atIssue = ok(await statement(agency, 'json', agent.apiKey));
    expect(atIssue.transactions).toEqual([
      { policy_number: policy.policyNumber, insured: 'Pat Example', transaction: 'New Business', effective_date: TODAY, premium: 826.62, rate: 15, commission: 123.99 },
    ]);

    const cancelled = await service.call(`${P}/cancel_policy`, { policy_id: policy.policyId, cancel_reason_id: INSUREDS_REQUEST, cancel_date: addDays(TODAY, 30) });
    expect(cancelled.body.message).toContain('return premium 726.62');
    // The account is credited what the message says: 851.62 billed, less 726.62, leaves the 100.00 earned and the 25.00 fee.
    const rows = ok(await service.call(`${P}/retrieve_account_history`, { policy_id: policy.policyId })).records;
    expect(rows.slice(0, 2).map((row: { type: string; amount: number; balance: number }) => [row.type, row.amount, row.balance])).toEqual([['Return Premium', -726.62, 125], ['Cancellation', 0, 851.62]]);
    const afterCancel = ok(await statement(agency));
    expect(afterCancel.transactions.map((row: { transaction: string; premium: number; commission: number }) => [row.transaction, row.premium, row.commission])).toEqual([
      ['New Business', 826.62, 123.99],
      ['Cancellation', -726.62, -108.99],
    ]);
    expect(afterCancel.totals).toEqual({ premium: 100, commission: 15, previous_balance: 0, paid: 0, balance: 15 });

    const csv = ok(await statement(agency, 'csv')).csv as string;
    expect(csv.split('\n')).toEqual([
      'policy_number,insured,transaction,effective_date,premium,rate,commission',
      `${policy.policyNumber},Pat Example,New Business,${TODAY},826.62,15,123.99`,
      `${policy.policyNumber},Pat Example,Cancellation,${addDays(TODAY, 30)},-726.62,15,-108.99`,
      'Total,,,,100.00,,15.00',
      'Previous balance,,,,,,0.00',
      'Paid,,,,,,0.00',
      'Balance,,,,,,15.00',
      '',
    ]);

    ok(await service.call(`${P}/reinstate_policy`, { policy_id: policy.policyId, fee_action: 'waive' }));
    const reinstated = ok(await statement(agency));
    expect(reinstated.transactions.at(-1)).toMatchObject({ transaction: 'Reinstatement', premium: 726.62, commission: 108.99 });
    expect(reinstated.totals.commission).toBe(123.99);

    // The books journal the same commission (Commission expense against Commission payable), every day balanced.
    const journal = ok(await service.call('/api/v2/reports/journal', { from_date: TODAY, to_date: TODAY }));
    for (const day of journal.days) expect(day).toMatchObject({ balanced: true });
    const balance = (name: string) => journal.trial_balance.accounts.find((account: { account: string }) => account.account === name)?.balance;
    expect(Math.abs(Number(balance('Commission expense')))).toBe(123.99);
    expect(Number(balance('Commission expense')) + Number(balance('Commission payable'))).toBe(0);
  });

  it("a schedule set for an agency decides a new policy's rate; issue's override decides one policy's; only an Administrator sets one", async () => {
    const agency = await newAgency();
    const agent = await agentOf([agency]);
    expect((await service.call(`${B}/set_commission_schedule`, { agency_id: agent.contactId, new_business_rate: 20, renewal_rate: 10 })).body.messages).toEqual([`agency_id: ${agent.contactId} is not an agency`]);
    expect((await service.call(`${B}/set_commission_schedule`, { agency_id: agency, line_id: crypto.randomUUID(), new_business_rate: 20, renewal_rate: 10 })).body.messages[0]).toMatch(/^line_id: .* is not a line of the catalog$/);
    const refused = await service.call(`${B}/set_commission_schedule`, { agency_id: agency, new_business_rate: 50, renewal_rate: 50 }, { apiKey: agent.apiKey });
    expect(refused.body.success).toBe(false);

    expect(ok(await service.call(`${B}/set_commission_schedule`, { agency_id: agency, state: 'NY', new_business_rate: '20', renewal_rate: 10 }))).toEqual({
      agency_id: agency, line_id: '*', state: 'NY', new_business_rate: 20, renewal_rate: 10,
    });
    const scheduled = await issuedForAgency(agent.apiKey, 'Sam Schedule');
    expect(scheduled.issued).toMatchObject({ commission_rate: 20, override_commission: false });
    expect(ok(await service.call(`${P}/retrieve_policy`, { policy_id: scheduled.policyId })).active_revision).toMatchObject({ commission_rate: 20, override_commission: false });
    const overridden = await issuedForAgency(agent.apiKey, 'Olive Override', { override_commission: true, commission_rate: 10 });
    expect(overridden.issued).toMatchObject({ commission_rate: 10, override_commission: true });

    const rows = ok(await statement(agency)).transactions;
    expect(rows).toEqual([
      expect.objectContaining({ policy_number: scheduled.policyNumber, rate: 20, commission: 165.32 }),
      expect.objectContaining({ policy_number: overridden.policyNumber, rate: 10, commission: 82.66 }),
    ]);
    // Another agency keeps the reference product's 15%.
    const other = crypto.randomUUID();
    const otherAgent = await agentOf([other]);
    await issuedForAgency(otherAgent.apiKey, 'Dee Default');
    expect(ok(await statement(other)).transactions).toEqual([expect.objectContaining({ rate: 15, commission: 123.99 })]);
  });

  it('earns on an endorsement\'s additional premium at the term\'s rate, and a preview earns nothing', async () => {
    const agency = crypto.randomUUID();
    const agent = await agentOf([agency]);
    const policy = await issuedForAgency(agent.apiKey, 'Eve Endorse');
    const { revision_id: revisionId } = ok(await service.call(`${P}/new_revision`, { policy_id: policy.policyId, revision_date: TODAY }));
    const revision = ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: revisionId }));
    const dwelling = (revision.items as Array<{ name: string; id: string }>).find((item) => item.name === 'Dwelling')!;
    ok(await service.call(`${P}/update_rating_information`, { revision_id: revisionId, items: [{ id: dwelling.id, limit: 300000 }] }));
    ok(await service.call(`${P}/rate_revision`, { revision_id: revisionId }));
    ok(await service.call(`${P}/preview_revision`, { revision_id: revisionId }));
    expect(ok(await statement(agency)).transactions).toHaveLength(1);
    const endorsed = ok(await service.call(`${P}/issue`, { issue_info: { policy_id: policy.policyId, revision_id: revisionId } }));
    const rows = ok(await statement(agency)).transactions;
    expect(rows.map((row: { transaction: string }) => row.transaction)).toEqual(['New Business', 'Endorsement']);
    expect(rows[1]).toMatchObject({ premium: endorsed.additional_premium, rate: 15, commission: Math.round((Math.round(endorsed.additional_premium * 100) * 15) / 100) / 100 });
  });

  it('earns the renewal rate (12%) on a renewal, in the month the renewal was decided; the months before carry into the previous balance', async () => {
    const agency = await newAgency();
    const policy = await issuedForAgency({ agencyId: agency }, 'Ray Renew', {}, '2025-01-01');
    expect(ok(await service.call(`${P}/process_renewals`, { policy_number: policy.policyNumber, renew_date: '2025-11-17' }))).toMatchObject({ decision: 'renewed', renewal_premium: 826.62 });
    const november = ok(await statement(agency, 'json', undefined, '2025-11'));
    expect(november.transactions).toEqual([expect.objectContaining({ policy_number: policy.policyNumber, transaction: 'Renewal', effective_date: '2026-01-01', premium: 826.62, rate: 12, commission: 99.19 })]);
    expect(november.totals).toMatchObject({ previous_balance: 0, balance: 99.19 });
    // This month's statement (the issue's) brings November's 99.19 forward.
    expect(ok(await statement(agency)).totals).toMatchObject({ previous_balance: 99.19, commission: 123.99, balance: 223.18 });
  });

  it("refuses an agent another agency's statement, as a record out of reach; a bad month names the field", async () => {
    const mine = crypto.randomUUID();
    const theirs = crypto.randomUUID();
    const agent = await agentOf([mine]);
    const refused = await statement(theirs, 'json', agent.apiKey);
    expect(refused.body.success).toBe(false);
    expect(JSON.stringify(refused.body)).toContain('not found');
    expect(ok(await statement(mine, 'json', agent.apiKey)).transactions).toEqual([]);
    const bad = await service.call(`${B}/retrieve_commission_statement`, { agency_id: mine, month: '2026-13' });
    expect(bad.body.success).toBe(false);
    expect(JSON.stringify(bad.body.messages)).toContain('month');
  });
});
