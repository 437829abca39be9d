/**
 * Electronic signatures of a policy application, through the API as clients call it: the
 * request (one signature per named insured), what retrieve_signature_requests shows, the
 * vendor's webhook (forged, stale, duplicated) and the signing page signing for real.
 * The consumer runs when the test drains the queue, so that "nothing was queued" is visible.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAttachmentRecord } from '../../shared/documents/store.js';
import type { Principal } from '../../shared/platform/principal.js';
import { signaturePorts } from '../../shared/signatures/ports.js';
import { requestDeliverableSignature } from '../../shared/signatures/service.js';
import { getVendorRequest } from '../../shared/signatures/store.js';
import type { SignatureVendor } from '../../shared/signatures/vendor.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';
import { CALLBACK, P, SIGNERS, drainSignatureEvents, postWebhook, queuedCount, submittedPolicy } from '../support/signatures.js';

let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.stop();
});

async function requestSignatures(policyId: string) {
  const answer = await service.call(`${P}/request_deliverable_signature`, { policy_id: policyId, sign_mode: 'embedded' });
  expect(answer.body, JSON.stringify(answer.body)).toMatchObject({ success: true });
  return { requestId: answer.body.message as string, links: answer.body.data as string[] };
}

const requestsOf = async (policyId: string) => {
  const answer = await service.call(`${P}/retrieve_signature_requests`, { policy_id: policyId });
  expect(answer.body).toMatchObject({ success: true, data: { success: true } });
  return answer.body.data.signature_requests as any[];
};

const pendingFiles = async (policyId: string) => JSON.parse(ok(await service.call(`${P}/retrieve_files_pending_signature`, { policy_id: policyId })));

describe('requesting signatures on a policy application', () => {
  it('asks one signature per named insured of a submitted policy, each awaiting_signature with its own signing page', async () => {
    const { policyId, policyNumber } = await submittedPolicy(service);
    const { requestId, links } = await requestSignatures(policyId);
    expect(links).toHaveLength(2);

    const [request] = await requestsOf(policyId);
    expect(request).toMatchObject({
      id: requestId,
      is_canceled: false,
      is_complete: false,
      is_embedded: true,
      doc_type: 'Policy Application',
      policy_id: policyId,
      policy_number: policyNumber,
      file_id: expect.any(String),
    });
    // The email is the contact's first one (create_quote_extended does not keep named insureds' emails yet: '').
    expect(request.signatures.map((signature: any) => [signature.signer_name, typeof signature.signer_email_address, signature.status_code])).toEqual(
      SIGNERS.map((signer) => [signer.name, 'string', 'awaiting_signature']),
    );
    expect(request.signatures.map((signature: any) => signature.iframe_url)).toEqual(links);
    for (const signature of request.signatures) expect(signature.id).toEqual(expect.any(String));

    expect(await pendingFiles(policyId)).toEqual({ [request.file_id]: { file_id: request.file_id, title: `Policy Application - ${policyNumber}`, doc_type: 'Policy Application', signature_request_id: requestId } });

    const again = await service.call(`${P}/request_deliverable_signature`, { policy_id: policyId, sign_mode: 'mail' });
    expect(again.body).toMatchObject({ success: false, message: expect.stringContaining('still awaiting signatures') });
    const early = await service.call('/api/v2/utils/mark_file_as_signed', { file_id: request.file_id });
    expect(early.body).toMatchObject({ success: false, messages: [expect.stringContaining('not signed by every signer')] });
  });

  it('refuses a quote that is not submitted, and names the field of a wrong sign_mode', async () => {
    const { policyId } = await submittedPolicy(service, { bind: false });
    const refused = await service.call(`${P}/request_deliverable_signature`, { policy_id: policyId, sign_mode: 'embedded' });
    expect(refused.body).toMatchObject({ success: false, message: expect.stringContaining('is Unsubmitted'), data: [] });
    const wrong = await service.call(`${P}/request_deliverable_signature`, { policy_id: policyId, sign_mode: 'fax' });
    expect(wrong.body.success).toBe(false);
    expect(JSON.stringify(wrong.body)).toContain('sign_mode');
  });

  it('cancels a request: its signing page stops working and a new request may be made', async () => {
    const { policyId } = await submittedPolicy(service);
    const { requestId, links } = await requestSignatures(policyId);
    const cancelled = await service.call(`${P}/cancel_signature_request`, { signature_request_id: requestId });
    expect(cancelled.body).toMatchObject({ success: true, message: expect.stringContaining('cancelled') });
    const [request] = await requestsOf(policyId);
    expect(request).toMatchObject({ is_canceled: true, is_complete: false });
    expect(request.signatures.map((signature: any) => signature.status_code)).toEqual(['canceled', 'canceled']);
    expect(await pendingFiles(policyId)).toEqual({});
    const page = await fetch(links[0]);
    expect(page.status).toBe(410);
    await requestSignatures(policyId);
    const [first, second] = await requestsOf(policyId);
    // The unsigned Policy Application of the revision is signed by the new request.
    expect(second.file_id).toBe(first.file_id);
  });

  it('creates one request when two are asked for one policy at once; the other is refused as a business error (issue 17 item 7)', async () => {
    const { policyId } = await submittedPolicy(service);
    const ask = () => service.call(`${P}/request_deliverable_signature`, { policy_id: policyId, sign_mode: 'embedded' });
    const answers = await Promise.all([ask(), ask(), ask()]);
    const accepted = answers.filter((answer) => answer.body.success === true);
    const refused = answers.filter((answer) => answer.body.success === false);
    expect(accepted).toHaveLength(1);
    expect(refused).toHaveLength(2);
    for (const answer of refused) {
      expect(answer.status).toBe(200);
      expect(answer.body.message).toMatch(/still awaiting signatures|being requested/);
    }
    const requests = await requestsOf(policyId);
    expect(requests.map((request: any) => request.id)).toEqual([accepted[0].body.message]);
    // Cancelling frees the policy for a new request.
    expect((await service.call(`${P}/cancel_signature_request`, { signature_request_id: accepted[0].body.message })).body).toMatchObject({ success: true });
    await requestSignatures(policyId);
  });

  it('leaves exactly one request open at the vendor when two for one document race past the check (the loser withdraws its own)', async () => {
    const { policyId } = await submittedPolicy(service);
    const administrator: Principal = { contactId: 'signature-race', credential: 'api_key', roleIds: [], heldRoleIds: [], permissions: new Set(['*']), agencyIds: [], scope: 'all', isAdministrator: true };
    // Both callers reach the vendor before either writes: the race the guard decides, every time.
    const asked: string[] = [];
    let bothAsked!: () => void;
    const barrier = new Promise<void>((resolve) => (bothAsked = resolve));
    const vendor: SignatureVendor = {
      ...signaturePorts.vendor,
      async createRequest(input) {
        const created = await signaturePorts.vendor.createRequest(input);
        asked.push(input.requestId);
        if (asked.length === 2) bothAsked();
        await barrier;
        return created;
      },
    };
    const ports = { ...signaturePorts, vendor };
    const outcomes = await Promise.allSettled([0, 1].map(() => requestDeliverableSignature(administrator, { policyId, signMode: 'embedded' }, ports)));
    const kept = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value.id] : []));
    const refused = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [(outcome.reason as Error).message] : []));
    expect(kept).toHaveLength(1);
    expect(refused).toEqual([expect.stringMatching(/being requested|still awaiting signatures/)]);
    expect(asked).toHaveLength(2);
    const atVendor = await Promise.all(asked.map(async (requestId) => ({ requestId, canceled: (await getVendorRequest(requestId))!.canceled })));
    expect(atVendor.filter((request) => !request.canceled).map((request) => request.requestId)).toEqual(kept);
    expect((await requestsOf(policyId)).map((request: any) => request.id)).toEqual(kept);
  });

  it('answers the signable deliverable names at both paths existing clients call', async () => {
    for (const path of [`${P}/get_signable_deliverable_names`, '/api/v2/utils/get_signable_deliverable_names']) {
      expect(ok(await service.call(path, {}))).toEqual(['Policy Application']);
    }
  });
});

describe("the vendor's webhook", () => {
  it('refuses a forged webhook and a replayed stale one, queueing nothing', async () => {
    const { policyId } = await submittedPolicy(service);
    const { requestId } = await requestSignatures(policyId);
    const event = { event_type: 'all_signed', policy_id: policyId, signature_request_id: requestId };
    const before = await queuedCount();

    const forged = await postWebhook(service, event, { secret: 'not-the-vendor-secret' });
    expect(forged.status).toBe(401);
    expect(forged.body).toMatchObject({ success: false, messages: [expect.stringContaining('signature')] });
    const unsigned = await service.call(CALLBACK, event, { apiKey: null });
    expect(unsigned.status).toBe(401);
    const stale = await postWebhook(service, event, { timestamp: Math.floor(Date.now() / 1000) - 3600 });
    expect(stale.status).toBe(401);
    expect(stale.body.messages[0]).toMatch(/replay/);
    // An API key is no substitute for the vendor's signature.
    expect((await service.call(CALLBACK, event)).status).toBe(401);

    expect(await queuedCount()).toBe(before);
    expect((await requestsOf(policyId))[0]).toMatchObject({ is_complete: false });
  });

  it('applies a duplicated webhook once: the signer is signed once, and all_signed flags the file esigned', async () => {
    const { policyId } = await submittedPolicy(service);
    const { requestId } = await requestSignatures(policyId);
    await drainSignatureEvents();
    const signed = { event_type: 'signed', policy_id: policyId, signature_request_id: requestId, signer_name: SIGNERS[0].name, occurred_at: '2026-07-01T10:00:00Z' };
    for (let delivery = 0; delivery < 2; delivery += 1) {
      const answer = await postWebhook(service, signed);
      expect(answer.body).toEqual({ success: true, message: 'Event processed', data: null });
    }
    expect(await drainSignatureEvents()).toEqual({ received: 2, failed: 0 });
    const [afterSigned] = await requestsOf(policyId);
    expect(afterSigned.signatures.map((signature: any) => signature.status_code)).toEqual(['signed', 'awaiting_signature']);
    expect(afterSigned).toMatchObject({ is_complete: false, modified_at: '2026-07-01T10:00:00Z' });

    const allSigned = { event_type: 'all_signed', file_id: afterSigned.file_id, signer_name: '', occurred_at: '2026-07-01T11:00:00Z' };
    await postWebhook(service, allSigned);
    await postWebhook(service, allSigned);
    expect(await drainSignatureEvents()).toEqual({ received: 2, failed: 0 });
    const [done] = await requestsOf(policyId);
    expect(done).toMatchObject({ is_complete: true, modified_at: '2026-07-01T11:00:00Z' });
    expect(done.signatures.map((signature: any) => signature.status_code)).toEqual(['signed', 'signed']);
    expect(await pendingFiles(policyId)).toEqual({});
    expect(await getAttachmentRecord(done.file_id)).toMatchObject({ deliverableType: 'Policy Application', esigned: true, signedAt: expect.any(String) });
    expect(ok(await service.call(`${P}/mark_file_as_signed`, { file_id: done.file_id }))).toBeNull();
    expect(ok(await service.call('/api/v2/utils/mark_file_as_signed', { file_id: done.file_id }))).toBeNull();
  });

  it('refuses a signed webhook whose body is not an event, by field, and queues nothing', async () => {
    const before = await queuedCount();
    const answer = await postWebhook(service, { event_type: 'exploded' });
    expect(answer.status).toBe(200);
    expect(answer.body.success).toBe(false);
    expect(JSON.stringify(answer.body)).toContain('event_type');
    expect(await queuedCount()).toBe(before);
  });
});

describe('the signing page of the built-in vendor', () => {
  it('signs at the iframe_url page: each signer, then the request is complete and its file esigned', async () => {
    const { policyId } = await submittedPolicy(service);
    const { links } = await requestSignatures(policyId);
    for (const [index, link] of links.entries()) {
      const page = await fetch(link);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain(SIGNERS[index].name);
      const url = new URL(link);
      const form = new URLSearchParams({ signature: url.searchParams.get('signature')!, token: url.searchParams.get('token')!, agree: 'yes', typed_name: SIGNERS[index].name });
      const signed = await fetch(`${url.origin}${url.pathname}`, { method: 'POST', body: form });
      expect(signed.status).toBe(200);
      expect(await signed.text()).toContain('is signed');
    }
    // signed, signed, all_signed
    expect(await drainSignatureEvents()).toEqual({ received: 3, failed: 0 });
    const [request] = await requestsOf(policyId);
    expect(request).toMatchObject({ is_complete: true });
    expect(await pendingFiles(policyId)).toEqual({});
    expect((await getAttachmentRecord(request.file_id))?.esigned).toBe(true);
  });

  it('does not sign without the agreement and the signer typing their own name; a tampered link is not a page', async () => {
    const { policyId } = await submittedPolicy(service);
    const { links } = await requestSignatures(policyId);
    const url = new URL(links[0]);
    const form = new URLSearchParams({ signature: url.searchParams.get('signature')!, token: url.searchParams.get('token')!, agree: 'yes', typed_name: 'Someone Else' });
    expect((await fetch(`${url.origin}${url.pathname}`, { method: 'POST', body: form })).status).toBe(422);
    url.searchParams.set('token', '0'.repeat(40));
    expect((await fetch(url)).status).toBe(404);
    expect(await queuedCount()).toBe(0);
  });
});
