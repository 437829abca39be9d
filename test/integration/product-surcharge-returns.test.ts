/**
 * A state's surcharges on cancellation, as Florida filed them: the Florida worked example
 * (1543.88 premium, 25.00 policy fee, Emergency Management 2.00 fully earned, guaranty fund
 * 15.44 returned pro rata) issued 2025-01-01 and cancelled 2025-10-08 (85 of 365 days
 * returned) gives back its guaranty-fund share, 3.60, on a row of its own beside the return
 * premium; the Emergency Management surcharge and the fee stay earned; reinstating takes it back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAccount } from '../../shared/billing/store.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';
import { issueWorkedExample } from '../support/worked-example.js';

const P = '/api/v2/policies';
const INSUREDS_REQUEST = 'b6206c09-8deb-48e8-8323-7232d9464797';
let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.stop();
});

const history = async (policyId: string) => ok(await service.call(`${P}/retrieve_account_history`, { policy_id: policyId })).records;
const balanceOf = async (policy: { policyId: string; termId: string }) => (await loadAccount(policy.policyId, policy.termId))!.account.balanceCents;

describe('surcharges on cancellation, as filed', () => {
  it('returns the guaranty-fund surcharge pro rata on its own row (3.60), keeps the Emergency Management surcharge, and a reinstatement charges it again', async () => {
    const policy = await issueWorkedExample(service, 'Flora Cancel', '2025-01-01', { zip: '33101' });
    expect(policy.quote.total).toMatchObject({ annual_premium: 1543.88, annual_total: 1586.32 });
    expect(await balanceOf(policy)).toBe(158632);

    const cancelled = await service.call(`${P}/cancel_policy`, { policy_id: policy.policyId, cancel_date: '2025-10-08', cancel_reason_id: INSUREDS_REQUEST });
    expect(cancelled.body.success).toBe(true);
    const records = await history(policy.policyId);
    expect(records.map((record: { type: string }) => record.type)).toEqual(['Surcharge Return', 'Return Premium', 'Cancellation', 'Invoice']);
    // Premium: each item 85/365 of its written premium, to the cent (387.32 + 8.15 + 2.79 − 38.73).
    expect(records[1]).toMatchObject({ amount: -359.53, summary: 'Return premium 359.53' });
    // The guaranty fund's 15.44 × 85/365 = 3.5956…, apart from premium; the 2.00 Emergency Management surcharge stays earned.
    expect(records[0]).toMatchObject({ amount: -3.6, summary: 'Guaranty Fund Surcharge returned 3.60' });
    expect(records.some((record: { summary: string }) => record.summary.includes('Emergency Management'))).toBe(false);
    expect(await balanceOf(policy)).toBe(158632 - 35953 - 360);

    ok(await service.call(`${P}/reinstate_policy`, { policy_id: policy.policyId, fee_action: 'waive' }));
    const after = await history(policy.policyId);
    expect(after.slice(0, 2).map((record: { type: string; amount: number }) => [record.type, record.amount]).sort()).toEqual([['Reinstatement', 359.53], ['Surcharge Reinstated', 3.6]]);
    expect(await balanceOf(policy)).toBe(158632);
  });

  it('returns nothing of a surcharge on a New York policy (none filed): the worked example cancels as before', async () => {
    const policy = await issueWorkedExample(service, 'Nora Cancel', '2025-01-01');
    const cancelled = await service.call(`${P}/cancel_policy`, { policy_id: policy.policyId, cancel_date: '2025-10-08', cancel_reason_id: INSUREDS_REQUEST });
    expect(cancelled.body.success).toBe(true);
    const records = await history(policy.policyId);
    expect(records.map((record: { type: string }) => record.type)).toEqual(['Return Premium', 'Cancellation', 'Invoice']);
  });
});
