/**
 * A policy's second chance, from outside: a pending cancellation shows on retrieve_policy and
 * retrieve_policy_terms and rescind_cancellation lifts it; reinstate_policy undoes a
 * cancellation to the cent without lapse (fee assessed or waived), credits the days without
 * cover with lapse, produces a Notice of Reinstatement, refuses an agent and a reason the
 * carrier does not reinstate, and replays a retry by its Idempotency-Key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as planNightly } from '../../events/schedules/nightly_billing.js';
import { loadAccount } from '../../shared/billing/store.js';
import { listPolicyAttachments } from '../../shared/documents/store.js';
import { listPolicyNotes } from '../../shared/notes/store.js';
import { getNightlyRun } from '../../shared/platform/nightly-runs.js';
import { agentOf, fetchFile, pdfText } from '../support/documents.js';
import { issued3000 } from '../support/issued-3000.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';

const P = '/api/v2/policies';
const INSUREDS_REQUEST = 'b6206c09-8deb-48e8-8323-7232d9464797';
const REWRITTEN = '3cd696ff-5e4d-4d29-a610-7d10583e942d';
const NON_PAYMENT = 'eb24d327-578e-4fa8-84c8-335786ee5064';
let service: TestService;

const history = async (policyId: string) => ok(await service.call(`${P}/retrieve_account_history`, { policy_id: policyId, as_of: '2026-12-31' })).records;
const balanceOf = async (policy: { policyId: string; termId: string }) => (await loadAccount(policy.policyId, policy.termId))!.account.balanceCents;
async function cancel(policyId: string, body: Record<string, unknown>) {
  const answer = await service.call(`${P}/cancel_policy`, { policy_id: policyId, cancel_reason_id: INSUREDS_REQUEST, ...body });
  expect(answer.body.success, JSON.stringify(answer.body)).toBe(true);
}
const reinstate = (body: Record<string, unknown>, options = {}) => service.call(`${P}/reinstate_policy`, body, options);

async function nightly(date: string) {
  const run = await planNightly({ date });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const progress = await getNightlyRun('billing', date, run.runId);
    if (progress && progress.batchesDone >= progress.batches) return;
    if (Date.now() > deadline) throw new Error(`nightly run ${run.runId} did not finish`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  service = await startTestService({ consumers: true });
});
afterAll(async () => {
  await service?.stop();
});

describe('a pending cancellation', () => {
  it('shows on retrieve_policy and retrieve_policy_terms, and rescind_cancellation lifts it with a note', async () => {
    const policy = await issued3000(service, 'Penny Pending');
    expect((await service.call(`${P}/cancel_policy`, { policy_id: policy.policyId, cancel_reason_id: INSUREDS_REQUEST, cancel_pending_date: '2025-06-01' })).body.success).toBe(true);
    const pending = { cancellation_status: 'pending', cancel_pending_date: '2025-06-01', cancel_reason_id: INSUREDS_REQUEST };
    expect(ok(await service.call(`${P}/retrieve_policy`, { policy_id: policy.policyId })).active_policy_term).toMatchObject(pending);
    expect(ok(await service.call(`${P}/retrieve_policy_terms`, { policy_id: policy.policyId }))[0]).toMatchObject(pending);

    const lifted = ok(await service.call(`${P}/rescind_cancellation`, { policy_id: policy.policyId, reason: 'Insured changed their mind' }));
    expect(lifted.message).toBe(`Policy ${policy.policyNumber}: the cancellation pending for 2025-06-01 is rescinded (Insured changed their mind)`);
    const term = ok(await service.call(`${P}/retrieve_policy_terms`, { policy_id: policy.policyId }))[0];
    expect(term.cancellation_status).toBeUndefined();
    expect((await listPolicyNotes(policy.policyId)).map((note) => note.text)).toContain('Pending cancellation rescinded: Insured changed their mind');
    const again = await service.call(`${P}/rescind_cancellation`, { policy_id: policy.policyId, reason: 'twice' });
    expect(again.body).toMatchObject({ success: false, messages: [`Policy ${policy.policyNumber} has no cancellation pending`] });
  });

  it('lifted by hand while its invoice is unpaid, a non-payment pending is not set again by the nightly job for that invoice', async () => {
    const policy = await issued3000(service, 'Nolan Nightly');
    await nightly('2025-01-02');
    expect(ok(await service.call(`${P}/retrieve_policy`, { policy_id: policy.policyId })).active_policy_term).toMatchObject({ cancellation_status: 'pending', cancel_reason_id: NON_PAYMENT });
    ok(await service.call(`${P}/rescind_cancellation`, { policy_id: policy.policyId, reason: 'Payment plan agreed' }));
    await nightly('2025-01-03');
    await nightly('2025-01-20');
    const account = (await loadAccount(policy.policyId, policy.termId))!.account;
    expect(account).toMatchObject({ policyStatus: 'Active', nonPayment: { status: 'current' } });
    expect(account.balanceCents).toBe(302500);
  }, 120_000);
});

describe('reinstate_policy', () => {
  it('without lapse undoes the cancellation to the cent: the balance is what it was, plus the fee when assessed', async () => {
    const policy = await issued3000(service, 'Rory Reinstate');
    expect(await balanceOf(policy)).toBe(302500);
    await cancel(policy.policyId, { cancel_date: '2025-10-08' });
    expect(await balanceOf(policy)).toBe(232637);

    const agent = await agentOf([]);
    const refused = await reinstate({ policy_id: policy.policyId, fee_action: 'assess' }, { apiKey: agent.apiKey });
    expect(refused.body.success).toBe(false);
    expect(await balanceOf(policy)).toBe(232637);

    const keyed = { headers: { 'Idempotency-Key': `reinstate-${policy.policyId}` } };
    const answer = ok(await reinstate({ policy_id: policy.policyId, fee_action: 'assess' }, keyed));
    expect(answer).toMatchObject({ policy_number: policy.policyNumber, reinstatement_date: '2025-10-08', lapse_days: 0 });
    expect(ok(await reinstate({ policy_id: policy.policyId, fee_action: 'assess' }, keyed))).toEqual(answer);
    expect(await balanceOf(policy)).toBe(302500 + 2500);
    const records = await history(policy.policyId);
    expect(records.map((record: { type: string; amount: number }) => [record.type, record.amount])).toEqual([
      ['Reinstatement Fee', 25],
      ['Reinstatement', 698.63],
      ['Return Premium', -698.63],
      ['Cancellation', 0],
      ['Invoice', 3025],
    ]);
    expect(records[0].balance).toBe(3050);

    const [term] = ok(await service.call(`${P}/retrieve_policy_terms`, { policy_id: policy.policyId }));
    expect(term.cancellation_status).toBeUndefined();
    expect(term.revisions.map((revision: { revision_state: string; policy_status: string; cancel_date: string | null }) => [revision.revision_state, revision.policy_status, revision.cancel_date])).toEqual([
      ['committed', 'Active', null],
      ['archived', 'Cancelled', '2025-10-08'],
    ]);
    expect(ok(await service.call(`${P}/search`, { search_string: policy.policyNumber })).records[0].status).toBe('Active');
    await service.deliverablesRendered();
    const notice = (await listPolicyAttachments(policy.policyId)).find((file) => file.deliverableType === 'Notice of Reinstatement')!;
    expect(pdfText((await fetchFile(service, notice.fileId)).bytes)).toContain(`Policy ${policy.policyNumber} is reinstated effective`);
    // In force again: it can be endorsed and cancelled again.
    const reopened = await service.call(`${P}/new_revision`, { policy_id: policy.policyId, revision_date: '2025-11-01' });
    expect(reopened.body.success).toBe(true);
  }, 120_000);

  it('without lapse and the fee waived, the balance is exactly what it was before the cancellation', async () => {
    const policy = await issued3000(service, 'Wade Waive');
    await cancel(policy.policyId, { cancel_date: '2025-10-08' });
    ok(await reinstate({ policy_id: policy.policyId, fee_action: 'waive' }));
    expect(await balanceOf(policy)).toBe(302500);
  });

  it('with lapse does not charge the premium of the days without cover', async () => {
    const policy = await issued3000(service, 'Lena Lapse');
    await cancel(policy.policyId, { cancel_date: '2025-10-08' });
    const answer = ok(await reinstate({ policy_id: policy.policyId, reinstatement_date: '2025-10-18', with_lapse: true, fee_action: 'waive' }));
    expect(answer).toMatchObject({ reinstatement_date: '2025-10-18', lapse_days: 10 });
    // 10 of 365 days, item by item: 2975.00 → 81.51, 20.00 → 0.55, 5.00 → 0.14.
    const records = await history(policy.policyId);
    expect(records[0]).toMatchObject({ type: 'Lapse Credit', amount: -82.2 });
    expect(await balanceOf(policy)).toBe(302500 - 8220);
    expect(ok(await service.call(`${P}/retrieve_policy_terms`, { policy_id: policy.policyId }))[0].lapses).toEqual([{ from: '2025-10-08', to: '2025-10-18' }]);
    const wrong = await reinstate({ policy_id: policy.policyId, fee_action: 'waive' });
    expect(wrong.body.messages[0]).toMatch(/is not cancelled/);
  });

  it('refuses a reason the carrier does not reinstate, and a reinstatement date without lapse, naming them; writes nothing', async () => {
    const policy = await issued3000(service, 'Rita Rewritten');
    await cancel(policy.policyId, { cancel_date: '2025-10-08', cancel_reason_id: REWRITTEN });
    const refused = await reinstate({ policy_id: policy.policyId, fee_action: 'waive' });
    expect(refused.body.messages[0]).toBe(`Policy ${policy.policyNumber} was cancelled for Rewritten, which the carrier does not reinstate`);
    const other = await issued3000(service, 'Dan Date');
    await cancel(other.policyId, { cancel_date: '2025-10-08' });
    const dated = await reinstate({ policy_id: other.policyId, reinstatement_date: '2025-10-20', fee_action: 'waive' });
    expect(dated.body.messages[0]).toMatch(/^reinstatement_date: without lapse cover resumes on the cancellation date 2025-10-08/);
    expect(await balanceOf(other)).toBe(232637);
  });
});
