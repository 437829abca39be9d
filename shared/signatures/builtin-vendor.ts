/**
 * The built-in signature vendor: what a commercial e-signature vendor does, done by the
 * service itself so that signatures work out of the box. It keeps its own books (who signs,
 * who has signed), serves each signer a signing page at the signature's iframe_url (a
 * capability URL: an unguessable signature id plus a token only the vendor can make), and
 * reports each signature by a webhook signed like any vendor's (webhook-signature.ts) to
 * application_signature_event_callback. It talks to the callback over HTTP, exactly as an
 * outside vendor would: the callback cannot tell them apart.
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { signatureConfig } from '../platform/config.js';
import { findSignatureLocator, getVendorRequest, putVendorRequest, saveVendorRequest, type VendorRequestRecord } from './store.js';
import type { SignatureEventType } from './model.js';
import type { SignatureVendor, VendorRequestCreated, VendorRequestInput } from './vendor.js';
import { signWebhook } from './webhook-signature.js';
import { clock } from '../platform/clock.js';

export const BUILT_IN_VENDOR = 'built-in';
/** Where the signing page is served (locally by infra/local, in AWS by the esign site function). */
export const SIGNING_PAGE_PATH = '/esign/sign';
export const CALLBACK_PATH = '/api/v2/policies/application_signature_event_callback';
/** The header carrying `t=<unix>,v1=<hex>`. */
export const SIGNATURE_HEADER = 'x-signature';

/** The token that lets the holder of an iframe_url sign that one signature. */
export function signingToken(secret: string, signatureId: string): string {
  return createHmac('sha256', secret).update(`signing-page:${signatureId}`).digest('hex').slice(0, 40);
}

export function isSigningToken(secrets: readonly string[], signatureId: string, token: string): boolean {
  const given = Buffer.from(token);
  let matched = false;
  for (const secret of secrets) {
    const expected = Buffer.from(signingToken(secret, signatureId));
    matched = (expected.length === given.length && timingSafeEqual(expected, given)) || matched;
  }
  return matched;
}

export function signingUrl(baseUrl: string, signatureId: string, token: string): string {
  return `${baseUrl}${SIGNING_PAGE_PATH}?signature=${encodeURIComponent(signatureId)}&token=${encodeURIComponent(token)}`;
}

export const builtInVendor: SignatureVendor = {
  name: BUILT_IN_VENDOR,
  async createRequest(input: VendorRequestInput): Promise<VendorRequestCreated> {
    const [secret] = signatureConfig.vendorSecrets();
    const baseUrl = signatureConfig.publicBaseUrl();
    const signers = input.signers.map((signer) => ({ signatureId: randomUUID(), name: signer.name, email: signer.email }));
    await putVendorRequest({ requestId: input.requestId, policyId: input.policyId, fileId: input.fileId, title: input.title, canceled: false, signers, version: 1 });
    // Mail mode: a real vendor mails each signer the same link; the built-in one leaves the
    // links on the request (signatures[].iframe_url) for the back office to send.
    return {
      signatures: signers.map((signer) => ({
        id: signer.signatureId,
        iframe_url: signingUrl(baseUrl, signer.signatureId, signingToken(secret, signer.signatureId)),
        signer_name: signer.name,
        signer_email_address: signer.email,
      })),
    };
  },
  async cancelRequest(requestId: string): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const record = await getVendorRequest(requestId);
      if (!record || record.canceled) return;
      if (await saveVendorRequest(record, { ...record, canceled: true })) return;
    }
  },
};

export interface SigningPageView {
  record: VendorRequestRecord;
  signer: VendorRequestRecord['signers'][number];
}

/** The request and signer behind an iframe_url, or undefined when the link is not genuine. */
export async function signingPageView(signatureId: string, token: string): Promise<SigningPageView | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(signatureId) || !/^[0-9a-f]{40}$/.test(token)) return undefined;
  if (!isSigningToken(signatureConfig.vendorSecrets(), signatureId, token)) return undefined;
  const requestId = await requestOfSignature(signatureId);
  const record = requestId ? await getVendorRequest(requestId) : undefined;
  const signer = record?.signers.find((candidate) => candidate.signatureId === signatureId);
  return record && signer ? { record, signer } : undefined;
}

export type SigningOutcome = 'signed' | 'already signed' | 'canceled' | 'not found';

/**
 * Records the signature in the vendor's books, then reports it: `signed`, and `all_signed`
 * when it was the last one. Webhooks are sent after the books are saved; a delivery that
 * fails is sent again when the signer submits again (the callback de-duplicates).
 */
export async function signAtVendor(signatureId: string, token: string, fetchImpl: typeof fetch = fetch): Promise<SigningOutcome> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const view = await signingPageView(signatureId, token);
    if (!view) return 'not found';
    const { record, signer } = view;
    if (record.canceled) return 'canceled';
    const at = signer.signedAt ?? clock.now().toISOString();
    const signers = record.signers.map((candidate) => (candidate.signatureId === signatureId ? { ...candidate, signedAt: at } : candidate));
    if (!signer.signedAt && !(await saveVendorRequest(record, { ...record, signers }))) continue;
    await sendEvent(fetchImpl, record, 'signed', at, signer);
    if (signers.every((candidate) => candidate.signedAt)) await sendEvent(fetchImpl, record, 'all_signed', at);
    return signer.signedAt ? 'already signed' : 'signed';
  }
  throw new Error('The signature could not be recorded: the request kept changing');
}

async function sendEvent(fetchImpl: typeof fetch, record: VendorRequestRecord, eventType: SignatureEventType, at: string, signer?: SigningPageView['signer']) {
  const [secret] = signatureConfig.vendorSecrets();
  const baseUrl = signatureConfig.publicBaseUrl();
  const body = JSON.stringify({
    event_type: eventType,
    policy_id: record.policyId,
    file_id: record.fileId,
    signature_request_id: record.requestId,
    ...(signer
      ? { signer_name: signer.name, signer_email_address: signer.email, signature_url: signingUrl(baseUrl, signer.signatureId, signingToken(secret, signer.signatureId)) }
      : {}),
    occurred_at: at,
  });
  const response = await fetchImpl(`${baseUrl}${CALLBACK_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signWebhook(secret, body, Math.floor(Date.now() / 1000)) },
    body,
  });
  const answer = (await response.json().catch(() => undefined)) as { success?: boolean } | undefined;
  if (!response.ok || answer?.success !== true) throw new Error(`The signature callback answered ${response.status}`);
}

/** The vendor finds a request from a signature id through the signatures area's locator. */
async function requestOfSignature(signatureId: string): Promise<string | undefined> {
  const locator = await findSignatureLocator(signatureId);
  return locator?.kind === 'signature' ? locator.requestId : undefined;
}
