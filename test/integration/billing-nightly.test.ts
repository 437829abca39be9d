/**
 * Nightly billing on the local platform (planner → nightly-billing queue → consumer): an
 * invoice unpaid on its due date puts the policy into cancellation pending 15 days out,
 * paying rescinds it, still unpaid on the cancel date it is cancelled with the reference
 * return premium; a run repeated for the same day changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as planNightly } from '../../events/schedules/nightly_billing.js';
import { getNightlyRun, loadAccount } from '../../shared/billing/store.js';
import { listPolicyAttachments } from '../../shared/documents/attachments.js';
import { listPolicyNotes } from '../../shared/notes/store.js';
import { fetchFile, pdfText } from '../support/documents.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';
import { issueWorkedExample } from '../support/worked-example.js';

const P = '/api/v2/policies';
let service: TestService;

/** The worked example (851.62 on Full Pay), effective 2025-01-01: its invoice is due that day. */
async function issued(): Promise<{ policyId: string; policyNumber: string; termId: string }> {
  const { policyId, policyNumber, termId } = await issueWorkedExample(service, 'Nora Nightly', '2025-01-01');
  return { policyId, policyNumber, termId };
}

/** Runs the nightly job for a day, as the schedule would, and waits until the consumer has decided every batch. */
async function nightly(date: string): Promise<{ accounts: number }> {
  const run = await planNightly({ date });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const progress = await getNightlyRun('billing', date, run.runId);
    if (progress && progress.batchesDone >= progress.batches) return run;
    if (Date.now() > deadline) throw new Error(`nightly run ${run.runId} did not finish`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const account = async (policy: { policyId: string; termId: string }) => (await loadAccount(policy.policyId, policy.termId))!;
const history = async (policyId: string) => ok(await service.call(`${P}/retrieve_account_history`, { policy_id: policyId, filter_dict: {} })).records;

beforeAll(async () => {
  service = await startTestService({ consumers: true });
});
afterAll(async () => {
  await service?.stop();
});

describe('nightly billing', () => {
  it('pends an unpaid policy for 15 days, then cancels it with the reference return premium; each day run twice changes nothing the second time', async () => {
    const policy = await issued();
    await nightly('2025-01-01');
    expect((await account(policy)).account.nonPayment.status).toBe('current');

    await nightly('2025-01-02');
    const pending = await account(policy);
    expect(pending.account.nonPayment).toMatchObject({ status: 'cancellation_pending', cancelDate: '2025-01-16' });
    expect((await listPolicyNotes(policy.policyId)).map((note) => note.text)).toEqual([
      'Unpaid on its due date: pending cancellation for non-payment effective 2025-01-16; Notice of Cancellation requested',
    ]);
    // The notice the decision requested is rendered by the documents consumer, once, warning ahead of the date.
    await service.deliverablesRendered();
    const notices = (await listPolicyAttachments(policy.policyId)).filter((file) => file.deliverableType === 'Notice of Cancellation');
    expect(notices).toHaveLength(1);
    expect(pdfText((await fetchFile(service, notices[0].fileId)).bytes)).toContain('will be cancelled effective');
    await nightly('2025-01-02');
    expect((await account(policy)).account.version).toBe(pending.account.version);
    expect(await listPolicyNotes(policy.policyId)).toHaveLength(1);
    await service.deliverablesRendered();
    expect((await listPolicyAttachments(policy.policyId)).filter((file) => file.deliverableType === 'Notice of Cancellation')).toHaveLength(1);

    await nightly('2025-01-16');
    const cancelled = await account(policy);
    expect(cancelled.account.policyStatus).toBe('Cancelled');
    const records = await history(policy.policyId);
    expect(records.map((record: { type: string }) => record.type)).toEqual(['Return Premium', 'Cancellation', 'Invoice']);
    // 15 of 365 days earned is 33.97, below the minimum earned premium: 100.00 stays earned, 726.62 returned.
    expect(records[0]).toMatchObject({ amount: -726.62, balance: 125, date: '2025-01-16', summary: 'Return premium 726.62' });
    expect(records[1].summary).toBe('Policy cancelled effective 2025-01-16: Non-Payment of Premium');
    const revision = ok(await service.call(`${P}/retrieve_policy`, { policy_id: policy.policyId })).active_revision;
    expect(revision).toMatchObject({ policy_status: 'Cancelled', cancel_date: '2025-01-16' });

    await nightly('2025-01-16');
    expect((await account(policy)).account.version).toBe(cancelled.account.version);
    expect(await history(policy.policyId)).toHaveLength(3);
  });

  it('rescinds the pending cancellation once the balance is paid, and never cancels', async () => {
    const policy = await issued();
    await nightly('2025-01-02');
    expect((await account(policy)).account.nonPayment.status).toBe('cancellation_pending');
    ok(await service.call('/api/v1/payments/makeManualPolicyPayment', { json_dict: { policyNumber: policy.policyNumber, amount: '851.62', depositDate: '2025-01-05' } }));
    await nightly('2025-01-06');
    expect((await account(policy)).account.nonPayment.status).toBe('current');
    expect((await listPolicyNotes(policy.policyId)).at(-2)?.text).toBe('Balance paid: the pending cancellation for non-payment is rescinded');
    await nightly('2025-01-16');
    expect((await account(policy)).account.policyStatus).toBe('Active');
  });

  it('dates what a past day decides by that day, whenever it runs: the Notice of Cancellation of 2025-01-02 is dated 2025-01-02', async () => {
    const policy = await issued();
    await nightly('2025-01-02');
    await service.deliverablesRendered();
    const notices = (await listPolicyAttachments(policy.policyId)).filter((file) => file.deliverableType === 'Notice of Cancellation');
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ goDate: '2025-01-02', procDate: '2025-01-02' });
    expect((await listPolicyNotes(policy.policyId)).map((note) => note.createdAt)).toEqual(['2025-01-02T12:00:00.000Z']);
  });

  it('keeps one pending state: a term the nightly job put pending shows pending on retrieve_policy and search', async () => {
    const policy = await issued();
    await nightly('2025-01-02');
    const term = ok(await service.call(`${P}/retrieve_policy`, { policy_id: policy.policyId })).active_policy_term;
    expect(term).toMatchObject({ cancellation_status: 'pending', cancel_pending_date: '2025-01-16', cancel_reason_id: 'eb24d327-578e-4fa8-84c8-335786ee5064' });
    const found = ok(await service.call(`${P}/search`, { search_string: policy.policyNumber })).records;
    expect(found).toEqual([expect.objectContaining({ policyNumber: policy.policyNumber, status: 'Active', cancelPendingDate: '01/16/2025' })]);

    // Paid in time: the rescission withdraws it everywhere.
    ok(await service.call('/api/v1/payments/makeManualPolicyPayment', { json_dict: { policyNumber: policy.policyNumber, amount: '851.62', depositDate: '2025-01-05' } }));
    await nightly('2025-01-06');
    const after = ok(await service.call(`${P}/retrieve_policy`, { policy_id: policy.policyId })).active_policy_term;
    expect(after.cancellation_status).toBeUndefined();
    const again = ok(await service.call(`${P}/search`, { search_string: policy.policyNumber })).records;
    expect(again[0].cancelPendingDate).toBeUndefined();
  });

  it('sees a cancellation cancel_policy set pending, on a term that owes nothing, and makes it take effect on its day', async () => {
    const policy = await issued();
    ok(await service.call('/api/v1/payments/makeManualPolicyPayment', { json_dict: { policyNumber: policy.policyNumber, amount: '851.62', depositDate: '2025-01-01' } }));
    const answer = await service.call(`${P}/cancel_policy`, { policy_id: policy.policyId, cancel_reason_id: 'b6206c09-8deb-48e8-8323-7232d9464797', cancel_pending_date: '2025-03-01' });
    expect(answer.body.success).toBe(true);
    await nightly('2025-02-28');
    expect((await account(policy)).account.policyStatus).toBe('Active');
    await nightly('2025-03-01');
    expect((await account(policy)).account.policyStatus).toBe('Cancelled');
    const retrieved = ok(await service.call(`${P}/retrieve_policy`, { policy_id: policy.policyId }));
    expect(retrieved.active_revision).toMatchObject({ policy_status: 'Cancelled', cancel_date: '2025-03-01' });
    expect(retrieved.active_policy_term).toMatchObject({ cancellation_status: 'cancelled', cancel_pending_date: null });
  });

  it('keeps a pending cancellation cancel_policy set through a non-payment pending and its rescission, and makes it take effect on its day', async () => {
    const policy = await issued();
    ok(await service.call(`${P}/cancel_policy`, { policy_id: policy.policyId, cancel_reason_id: 'b6206c09-8deb-48e8-8323-7232d9464797', cancel_pending_date: '2025-03-01' }));
    await nightly('2025-01-02');
    expect((await account(policy)).account.nonPayment.status).toBe('cancellation_pending');
    const term = async () => ok(await service.call(`${P}/retrieve_policy`, { policy_id: policy.policyId })).active_policy_term;
    expect(await term()).toMatchObject({ cancellation_status: 'pending', cancel_pending_date: '2025-03-01', cancel_reason_id: 'b6206c09-8deb-48e8-8323-7232d9464797' });
    ok(await service.call('/api/v1/payments/makeManualPolicyPayment', { json_dict: { policyNumber: policy.policyNumber, amount: '851.62', depositDate: '2025-01-05' } }));
    await nightly('2025-01-06');
    expect((await account(policy)).account.nonPayment.status).toBe('current');
    expect(await term()).toMatchObject({ cancellation_status: 'pending', cancel_pending_date: '2025-03-01' });
    await nightly('2025-03-01');
    expect((await account(policy)).account.policyStatus).toBe('Cancelled');
  });
});
