/**
 * cancel_policy as a client sees it: pending, immediate (the reference worked example
 * returning 698.63), flat; the revision, the history rows and the note it leaves; and
 * removeNote on the notes the service writes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listPolicyNotes } from '../../shared/notes/store.js';
import { listPolicyAttachments } from '../../shared/documents/store.js';
import { loadAccount } from '../../shared/billing/store.js';
import { todayIso } from '../../shared/platform/dates.js';
import { UNDERWRITING_QUESTION, BILLING_SCHEDULE } from '../support/reference-product.js';
import { issued3000 } from '../support/issued-3000.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';

/** The reference product's Monthly schedule: ten installments, the first billed at issue. */
const MONTHLY = BILLING_SCHEDULE.MONTHLY;
const P = '/api/v2/policies';
const INSUREDS_REQUEST = 'b6206c09-8deb-48e8-8323-7232d9464797';
let service: TestService;

const history = async (policyId: string) => ok(await service.call(`${P}/retrieve_account_history`, { policy_id: policyId })).records;
const cancel = (body: Record<string, unknown>) => service.call(`${P}/cancel_policy`, { cancel_reason_id: INSUREDS_REQUEST, ...body });

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.stop();
});

describe('cancel_policy', () => {
  it('cancels after 280 of 365 days returning 698.63 of 3000.00, with revision, history rows and note', async () => {
    const { policyId, policyNumber } = await issued3000(service, 'Cass Cancel');
    const answer = await cancel({ policy_id: policyId, cancel_date: '2025-10-08' });
    expect(answer.body).toEqual({ success: true, message: `Policy ${policyNumber} cancelled effective 2025-10-08 (Insured's Request); return premium 698.63`, data: null });
    const records = await history(policyId);
    expect(records.map((record: { type: string }) => record.type)).toEqual(['Return Premium', 'Cancellation', 'Invoice']);
    expect(records[0]).toMatchObject({ amount: -698.63, balance: 2326.37, summary: 'Return premium 698.63', data: { details: { cancelDate: '2025-10-08' } } });
    expect(records[1]).toMatchObject({ amount: 0, balance: 3025, data: { details: { cancelDate: '2025-10-08' } } });

    const terms = ok(await service.call(`${P}/retrieve_policy_terms`, { policy_id: policyId }));
    const revisions = terms[0].revisions;
    expect(revisions).toHaveLength(2);
    expect(revisions[1]).toMatchObject({ revision_state: 'committed', policy_status: 'Cancelled', cancel_date: '2025-10-08', policy_status_reason_id: INSUREDS_REQUEST });
    expect(revisions[0]).toMatchObject({ revision_state: 'committed', policy_status: 'Cancelled', cancel_date: '2025-10-08' });
    const notes = await listPolicyNotes(policyId);
    expect(notes.map((note) => note.text)).toEqual([answer.body.message]);
    // In the same transaction: search shows the new status, and the Notice of Cancellation waits for print.
    const found = ok(await service.call(`${P}/search`, { search_string: policyNumber }));
    expect(found.records.map((record: { status: string }) => record.status)).toEqual(['Cancelled']);
    await service.deliverablesRendered();
    const files = await listPolicyAttachments(policyId);
    expect(files.map((file) => file.deliverableType).sort()).toEqual(['Declaration', 'Notice of Cancellation']);

    const again = await cancel({ policy_id: policyId, cancel_date: '2025-10-09' });
    expect(again.body).toEqual({ success: false, message: `Policy ${policyNumber} is already cancelled`, data: null });
    expect(await history(policyId)).toHaveLength(3);
  });

  it('returns all premium on a flat cancellation, keeping the fully earned 25.00 fee', async () => {
    const { policyId } = await issued3000(service, 'Cass Cancel');
    ok(await service.call('/api/v1/payments/makeManualPolicyPayment', { json_dict: { policyNumber: (await retrievePolicyNumber(policyId)), amount: '3025.00' } }));
    const answer = await cancel({ policy_id: policyId, cancel_date: '2025-01-01' });
    expect(answer.body.message).toMatch(/return premium 3000\.00 \(flat cancellation\)$/);
    const records = await history(policyId);
    expect(records[0]).toMatchObject({ type: 'Return Premium', amount: -3000, balance: -3000 });
  });

  it('puts the term into cancellation pending with cancel_pending_date (which wins over cancel_date), still Active, nothing returned', async () => {
    const { policyId, policyNumber } = await issued3000(service, 'Cass Cancel');
    const answer = await cancel({ policy_id: policyId, cancel_date: '2025-03-01', cancel_pending_date: '2025-06-01' });
    expect(answer.body).toEqual({ success: true, message: `Policy ${policyNumber} is pending cancellation effective 2025-06-01 (Insured's Request)`, data: null });
    expect(await history(policyId)).toHaveLength(1);
    const policy = ok(await service.call(`${P}/retrieve_policy`, { policy_id: policyId }));
    expect(policy.active_revision.policy_status).toBe('Active');
    // Cancelled for good afterwards.
    expect((await cancel({ policy_id: policyId, cancel_date: '2025-06-01' })).body.success).toBe(true);
  });

  it('takes a free-text cancel_reason when no cancel_reason_id is given, matched by name whatever its case; an unknown one is refused by field (issue 17 item 6)', async () => {
    const { policyId } = await issued3000(service, 'Cass Cancel');
    const byText = (body: Record<string, unknown>) => service.call(`${P}/cancel_policy`, { policy_id: policyId, cancel_date: '2025-05-01', ...body });
    expect((await byText({ cancel_reason: 'no such reason' })).body).toEqual({ success: false, message: 'cancel_reason: no such reason is not a cancel reason', data: null });
    expect((await byText({})).body.success).toBe(false);
    expect(await history(policyId)).toHaveLength(1);
    expect((await byText({ cancel_reason: "insured's REQUEST" })).body).toMatchObject({ success: true });
    const policy = ok(await service.call(`${P}/retrieve_policy`, { policy_id: policyId }));
    expect(policy.active_revision.policy_status).toBe('Cancelled');
  });

  it('refuses an unknown reason, a date outside the term, an unknown or unissued policy, changing nothing', async () => {
    const { policyId } = await issued3000(service, 'Cass Cancel');
    expect((await cancel({ policy_id: policyId, cancel_date: '2025-05-01', cancel_reason_id: 'nope' })).body).toEqual({ success: false, message: 'cancel_reason_id: nope is not a cancel reason', data: null });
    expect((await cancel({ policy_id: policyId, cancel_date: '2026-05-01' })).body).toEqual({ success: false, message: 'cancel_date 2026-05-01 is outside the term 2025-01-01 to 2026-01-01', data: null });
    expect((await cancel({ policy_id: 'no-such-policy', cancel_date: '2025-05-01' })).body).toEqual({ success: false, message: 'Policy no-such-policy was not found', data: null });
    const missing = await cancel({ policy_id: policyId });
    expect(missing.body.success).toBe(false);
    expect(await history(policyId)).toHaveLength(1);
  });
});

describe('cancelling a term billed Monthly', () => {
  it('voids the installments not yet billed and credits what the return premium exceeds them by, leaving the earned fee', async () => {
    const today = todayIso();
    const data = ok(
      await service.call(`${P}/create_quote_extended`, {
        quote_info: {
          effective_date: `${today.slice(5, 7)}/${today.slice(8, 10)}/${today.slice(0, 4)}`, line_name: 'Homeowners', policy_type_name: 'Homeowner - HO3', named_insureds: [{ name: 'Mo Monthly' }],
          underwriting_questions: [{ questionId: UNDERWRITING_QUESTION.LOSSES_IN_PAST_3_YEARS, yesNoAnswer: 'no' }],
          locations: [{ address_zip: '10001' }],
          items: [{ name: 'Dwelling', limit: 250000, questions: { 'Construction Type': 'Frame', 'Protection Class': '3' } }],
        },
      }),
    );
    ok(await service.call(`${P}/bind`, { bind_info: { policy_id: data.policy_id } }));
    // issue_info.billing_schedule_id chooses the schedule; an unknown one is refused by name and nothing is issued.
    const unknown = await service.call(`${P}/issue`, { issue_info: { policy_id: data.policy_id, billing_schedule_id: 'no-such-schedule' } });
    expect(unknown.body.success).toBe(false);
    expect(unknown.body.messages.join(' ')).toMatch(/issue_info\.billing_schedule_id: no billing schedule no-such-schedule/);
    expect(ok(await service.call(`${P}/retrieve_policy`, { policy_id: data.policy_id })).active_revision.policy_status).toBe('Submitted');
    ok(await service.call(`${P}/issue`, { issue_info: { policy_id: data.policy_id, billing_schedule_id: MONTHLY } }));
    const policy = ok(await service.call(`${P}/retrieve_policy`, { policy_id: data.policy_id }));
    const termId = policy.active_policy_term.id;
    expect((await loadAccount(data.policy_id, termId))!.entries).toHaveLength(10);
    expect((await history(data.policy_id)).map((record: { amount: number }) => record.amount)).toEqual([107.66]);

    const answer = await cancel({ policy_id: data.policy_id, cancel_date: today });
    // The message says what the account gets, from the row's own figures: 826.62 returned, 743.96 of it never billed, 82.66 credited.
    expect(answer.body.message).toMatch(/return premium 826\.62 \(flat cancellation\); the installments not yet billed \(743\.96\) are voided and 82\.66 is credited$/);
    const records = await history(data.policy_id);
    expect(records.map((record: { type: string; amount: number; balance: number }) => [record.type, record.amount, record.balance])).toEqual([
      ['Return Premium', -82.66, 25],
      ['Cancellation', 0, 107.66],
      ['Invoice', 107.66, 107.66],
    ]);
    const loaded = (await loadAccount(data.policy_id, termId))!;
    expect(loaded.entries).toHaveLength(3);
    expect(loaded.account.balanceCents).toBe(2500);
  });
});

async function retrievePolicyNumber(policyId: string): Promise<string> {
  return ok(await service.call(`${P}/retrieve_policy`, { policy_id: policyId })).policy_number;
}

describe('notes', () => {
  it('removes a note the service wrote by its id, answering success; an unknown id answers success false', async () => {
    const { policyId } = await issued3000(service, 'Cass Cancel');
    ok(await cancel({ policy_id: policyId, cancel_date: '2025-02-01' }));
    const [note] = await listPolicyNotes(policyId);
    expect((await service.call('/api/v1/notes/removeNote', { json_dict: { id: note.id } })).body).toEqual({ success: true, message: [], data: {} });
    expect(await listPolicyNotes(policyId)).toEqual([]);
    const again = await service.call('/api/v1/notes/removeNote', { json_dict: { id: note.id } });
    expect(again.body).toMatchObject({ success: false, message: [`Note ${note.id} was not found`] });
  });
});
