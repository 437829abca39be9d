/**
 * Refunds paid out (issue 32): the worked example paid in full and cancelled 30 days after issue
 * owes 726.62 back; the cancellation writes a pending refund to Pat Example in its transaction,
 * which billing staff approve, mark issued (the credit leaves the account) or void (it stays).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../shared/platform/dates.js';
import { agentOf } from '../support/documents.js';
import { issueWorkedExample } from '../support/worked-example.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';

const P = '/api/v2/policies';
const B = '/api/v2/billing';
const INSUREDS_REQUEST = 'b6206c09-8deb-48e8-8323-7232d9464797';
const EFFECTIVE = '2025-03-01';
let service: TestService;

const history = async (policyId: string) => ok(await service.call(`${P}/retrieve_account_history`, { policy_id: policyId })).records as Array<Record<string, any>>;

/** The worked example paid in full (851.62) and cancelled 30 days after its effective date. */
async function cancelledPaidInFull(name: string) {
  const policy = await issueWorkedExample(service, name, EFFECTIVE);
  ok(await service.call('/api/v1/payments/makeManualPolicyPayment', { json_dict: { policyNumber: policy.policyNumber, amount: '851.62' } }));
  ok(await service.call(`${P}/cancel_policy`, { policy_id: policy.policyId, cancel_date: addDays(EFFECTIVE, 30), cancel_reason_id: INSUREDS_REQUEST }));
  return policy;
}

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.stop();
});

describe('refunds', () => {
  it('owes Pat Example 726.62 as a pending refund; approved and issued it takes the credit off the account, and can no longer be voided', async () => {
    const policy = await cancelledPaidInFull('Pat Example');
    const { refunds } = ok(await service.call(`${B}/list_refunds`, { policy_id: policy.policyId }));
    expect(refunds).toEqual([expect.objectContaining({ payee: 'Pat Example', amount: 726.62, state: 'pending', policy_number: policy.policyNumber })]);
    const refundId = refunds[0].refund_id;
    expect((await history(policy.policyId))[0]).toMatchObject({ type: 'Return Premium', balance: -726.62 });

    const agent = await agentOf([]);
    expect((await service.call(`${B}/approve_refund`, { refund_id: refundId }, { apiKey: agent.apiKey })).status).toBe(403);
    expect((await service.call(`${B}/list_refunds`, { policy_id: policy.policyId }, { apiKey: agent.apiKey })).status).toBe(403);

    const keyed = { headers: { 'Idempotency-Key': `approve-${refundId}` } };
    const approved = await service.call(`${B}/approve_refund`, { refund_id: refundId }, keyed);
    expect(approved.body.data).toMatchObject({ state: 'approved' });
    expect((await service.call(`${B}/approve_refund`, { refund_id: refundId }, keyed)).body).toEqual(approved.body);
    const again = await service.call(`${B}/approve_refund`, { refund_id: refundId });
    expect(again.body.success).toBe(false);
    expect(JSON.stringify(again.body)).toContain('refund_id');

    const missing = await service.call(`${B}/mark_refund_issued`, { refund_id: refundId });
    expect(missing.body.success).toBe(false);
    const exported = ok(await service.call(`${B}/export_refunds`, { first_check_number: 100045 }));
    const line = (exported.csv as string).split('\n').find((candidate) => candidate.endsWith(',Pat Example') && candidate.startsWith('1000'));
    expect(line).toMatch(/^1000\d\d,\d{4}-\d\d-\d\d,726\.62,Pat Example$/);
    // The same batch again: every refund it held is issued, nothing is exported twice.
    const second = ok(await service.call(`${B}/export_refunds`, { first_check_number: 100045 }));
    expect(second.csv).toBe('check_number,date,amount,payee\n');
    expect(ok(await service.call(`${B}/list_refunds`, { policy_id: policy.policyId }))).toMatchObject({ refunds: [{ state: 'issued', check_number: line!.split(',')[0] }] });
    const rows = await history(policy.policyId);
    expect(rows[0]).toMatchObject({ type: 'Refund', amount: 726.62, balance: 0 });
    expect(rows[1]).toMatchObject({ type: 'Refund', amount: 0 });

    const refused = await service.call(`${B}/void_refund`, { refund_id: refundId, reason: 'Too late' });
    expect(refused.body.success).toBe(false);
    expect(ok(await service.call(`${B}/list_refunds`, { policy_id: policy.policyId, state: 'issued' })).refunds).toHaveLength(1);
  });

  it('voids a pending refund: the credit stays on the account, the void is on its history; a void without reason names the field and writes nothing', async () => {
    const policy = await cancelledPaidInFull('Vic Void');
    const [refund] = ok(await service.call(`${B}/list_refunds`, { policy_id: policy.policyId })).refunds;
    const blank = await service.call(`${B}/void_refund`, { refund_id: refund.refund_id });
    expect(blank.body.success).toBe(false);
    expect(JSON.stringify(blank.body)).toContain('reason');
    expect(ok(await service.call(`${B}/void_refund`, { refund_id: refund.refund_id, reason: 'Insured asked to keep the credit' }))).toMatchObject({ state: 'voided' });
    const rows = await history(policy.policyId);
    expect(rows[0]).toMatchObject({ type: 'Refund', amount: 0, balance: -726.62 });
    expect(ok(await service.call(`${B}/list_refunds`, { policy_id: policy.policyId, state: 'pending' })).refunds).toEqual([]);
  });
});
