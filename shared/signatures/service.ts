/**
 * Electronic signatures of a policy's application: requesting them from the vendor,
 * reading and cancelling requests, flagging the signed file, and applying the vendor's
 * events (from the signature-events queue). Every call made for a caller checks that the
 * policy is within the caller's reach; events come from the vendor and carry no caller.
 */
import { randomUUID } from 'node:crypto';
import { getContacts } from '../contacts/index.js';
import { BusinessRuleError, ConcurrentChangeError, NotFoundError } from '../platform/errors.js';
import type { Principal } from '../platform/principal.js';
import { eventOf } from '../events/index.js';
import { getPolicy, policyWithinReach, revisionWithinReach } from '../policies/index.js';
import { applySignatureEvent, signatureEventKey, type SignatureEvent, type SignatureRequest } from './model.js';
import {
  createSignatureRequest,
  findSignatureLocator,
  getSignableFile,
  getSignatureRequest,
  listSignableFiles,
  listSignatureRequests,
  markSignableFileSigned,
  saveAppliedEvent,
  saveSignatureRequest,
  type StoredSignatureRequest,
} from './store.js';
import { SIGNABLE_DELIVERABLE_NAMES, type SignableDocuments, type SignatureVendor } from './vendor.js';
import { clock } from '../platform/clock.js';

const POLICY_APPLICATION = 'Policy Application';
const MAX_ATTEMPTS = 5;

export interface SignaturePorts {
  vendor: SignatureVendor;
  documents: SignableDocuments;
}

/**
 * Asks the vendor for one signature per named insured on the Policy Application of a
 * submitted policy that is not yet committed. One request at a time: while one awaits
 * signatures, asking again is refused (cancel it first).
 */
export async function requestDeliverableSignature(
  principal: Principal,
  input: { policyId: string; signMode: 'embedded' | 'mail' },
  ports: SignaturePorts,
): Promise<SignatureRequest> {
  const { policy } = await policyWithinReach(principal, { policyId: input.policyId });
  const { header } = await revisionWithinReach(principal, policy.activeRevisionId);
  if (header.policyStatus !== 'Submitted' || header.revisionState !== 'open') {
    throw new BusinessRuleError(`Policy ${policy.policyNumber} is ${header.policyStatus} (revision ${header.revisionState}); signatures are requested for a submitted policy not yet issued`);
  }
  const pending = (await listSignatureRequests(policy.id)).find(({ request }) => !request.is_canceled && !request.is_complete);
  if (pending) throw new BusinessRuleError(`Signature request ${pending.request.id} of policy ${policy.policyNumber} is still awaiting signatures; cancel it before requesting another`);

  const namedInsuredIds = header.contacts.namedInsuredIds;
  const contacts = await getContacts(namedInsuredIds);
  const signers = namedInsuredIds.flatMap((contactId) => {
    const contact = contacts.get(contactId);
    return contact ? [{ name: contact.name, email: contact.emailAddresses?.[0]?.email ?? '' }] : [];
  });
  if (signers.length === 0) throw new BusinessRuleError(`Policy ${policy.policyNumber} has no named insured to sign its application`);

  const file = await ports.documents.policyApplication({ policyId: policy.id, policyNumber: policy.policyNumber, revisionId: header.id });
  const requestId = randomUUID();
  const now = clock.now().toISOString();
  const embedded = input.signMode === 'embedded';
  const subject = `${POLICY_APPLICATION} of policy ${policy.policyNumber}`;
  const created = await ports.vendor.createRequest({
    requestId,
    policyId: policy.id,
    policyNumber: policy.policyNumber,
    fileId: file.fileId,
    title: file.title,
    subject,
    embedded,
    signers,
  });
  const request: SignatureRequest = {
    id: requestId,
    is_canceled: false,
    is_complete: false,
    is_embedded: embedded,
    doc_type: file.docType,
    created_at: now,
    modified_at: now,
    file_id: file.fileId,
    ...(file.url ? { files_url: file.url } : created.files_url ? { files_url: created.files_url } : {}),
    has_error: false,
    message: '',
    policy_id: policy.id,
    policy_number: policy.policyNumber,
    requester_email_address: '',
    ...(created.signing_url ? { signing_url: created.signing_url } : {}),
    subject,
    title: file.title,
    signatures: created.signatures.map((signature) => ({ ...signature, status_code: 'awaiting_signature' as const, created_at: now })),
  };
  const stored: StoredSignatureRequest = { request, policyId: policy.id, vendor: ports.vendor.name, createdAt: now, version: 1 };
  try {
    await createSignatureRequest(stored, { fileId: file.fileId, policyId: policy.id, requestId, title: file.title, docType: file.docType, esigned: false });
  } catch (error) {
    // The vendor was asked before the guarded write (its answer is what we store): a write that
    // loses (a request racing this one holds the policy's guard) or fails withdraws the request
    // at the vendor, so that no signer is left holding a link to a request we never kept.
    await ports.vendor.cancelRequest(requestId);
    throw error;
  }
  return request;
}

export async function retrieveSignatureRequests(principal: Principal, policyId: string): Promise<SignatureRequest[]> {
  const { policy } = await policyWithinReach(principal, { policyId });
  return (await listSignatureRequests(policy.id)).map(({ request }) => request);
}

/** Files of the policy sent for signature and not signed yet, keyed by file id. */
export async function retrieveFilesPendingSignature(principal: Principal, policyId: string): Promise<Record<string, { file_id: string; title: string; doc_type: string; signature_request_id: string }>> {
  const { policy } = await policyWithinReach(principal, { policyId });
  const [files, requests] = await Promise.all([listSignableFiles(policy.id), listSignatureRequests(policy.id)]);
  const live = new Set(requests.filter(({ request }) => !request.is_canceled).map(({ request }) => request.id));
  const pending: Record<string, { file_id: string; title: string; doc_type: string; signature_request_id: string }> = {};
  for (const file of files) {
    if (file.esigned || !live.has(file.requestId)) continue;
    pending[file.fileId] = { file_id: file.fileId, title: file.title, doc_type: file.docType, signature_request_id: file.requestId };
  }
  return pending;
}

export function signableDeliverableNames(): string[] {
  return [...SIGNABLE_DELIVERABLE_NAMES];
}

async function requestWithinReach(principal: Principal, requestId: string): Promise<StoredSignatureRequest> {
  const locator = await findSignatureLocator(requestId);
  if (!locator || locator.kind !== 'request') throw new NotFoundError(`Signature request ${requestId}`);
  await policyWithinReach(principal, { policyId: locator.policyId }).catch(() => {
    throw new NotFoundError(`Signature request ${requestId}`);
  });
  const stored = await getSignatureRequest(locator.policyId, requestId);
  if (!stored) throw new NotFoundError(`Signature request ${requestId}`);
  return stored;
}

/** Cancels a request still awaiting signatures; cancelling a cancelled one changes nothing. */
export async function cancelSignatureRequest(principal: Principal, requestId: string, vendor: SignatureVendor): Promise<void> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    const stored = await requestWithinReach(principal, requestId);
    if (stored.request.is_complete) throw new BusinessRuleError(`Signature request ${requestId} is already signed by everyone`);
    if (stored.request.is_canceled) return;
    const outcome = applySignatureEvent(stored.request, { event_type: 'canceled', occurred_at: clock.now().toISOString() });
    if (await saveSignatureRequest(stored, outcome.request)) {
      await vendor.cancelRequest(requestId);
      return;
    }
  }
  throw new ConcurrentChangeError(`Signature request ${requestId}`);
}

/** Flags the file esigned once every signer of its request has signed. */
export async function markFileAsSigned(principal: Principal, fileId: string, documents: Pick<SignableDocuments, 'markSigned'>): Promise<void> {
  const locator = await findSignatureLocator(fileId);
  if (!locator || locator.kind !== 'file') throw new NotFoundError(`File ${fileId} sent for signature`);
  await policyWithinReach(principal, { policyId: locator.policyId }).catch(() => {
    throw new NotFoundError(`File ${fileId} sent for signature`);
  });
  const stored = await getSignatureRequest(locator.policyId, locator.requestId);
  if (!stored?.request.is_complete) throw new BusinessRuleError(`File ${fileId} is not signed by every signer yet`);
  await flagSigned(locator.policyId, fileId, documents);
}

async function flagSigned(policyId: string, fileId: string, documents: Pick<SignableDocuments, 'markSigned'>): Promise<void> {
  const file = await getSignableFile(policyId, fileId);
  if (!file) return;
  if (!file.esigned) await markSignableFileSigned(policyId, fileId, clock.now().toISOString());
  await documents.markSigned({ fileId, policyId });
}

/** A vendor event as the callback queues it. */
export interface QueuedSignatureEvent {
  event: SignatureEvent & { signature_request_id?: string };
  /** When the callback accepted it. */
  received_at: string;
}

export class UnknownSignatureRequestError extends Error {
  constructor() {
    super('The event names no known signature request (signature_request_id or file_id)');
    this.name = 'UnknownSignatureRequestError';
  }
}

export type AppliedOutcome = 'applied' | 'unchanged';

/** signature.completed for integrators, in the transaction of the event that completes the request. */
async function signatureCompleted(policyId: string, request: SignatureRequest) {
  const policy = await getPolicy(policyId);
  if (!policy) return [];
  return [
    eventOf({
      type: 'signature.completed', policyId, policyNumber: policy.policyNumber, agencyId: policy.agencyId, transactionId: request.id,
      data: { signature_request_id: request.id, file_id: request.file_id ?? null, doc_type: request.doc_type },
    }),
  ];
}

/**
 * Applies one vendor event. A duplicate (or an event the request has moved past) changes
 * nothing; the event that completes the request also flags its file esigned. Safe to run
 * again after a failure at any point: the file flag is checked on every delivery.
 */
export async function applyQueuedSignatureEvent(queued: QueuedSignatureEvent, documents: Pick<SignableDocuments, 'markSigned'>): Promise<AppliedOutcome> {
  const { event } = queued;
  const locator =
    (event.signature_request_id ? await findSignatureLocator(event.signature_request_id) : undefined) ??
    (event.file_id ? await findSignatureLocator(event.file_id) : undefined);
  if (!locator || (locator.kind !== 'request' && locator.kind !== 'file')) throw new UnknownSignatureRequestError();
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    const stored = await getSignatureRequest(locator.policyId, locator.requestId);
    if (!stored) throw new UnknownSignatureRequestError();
    const outcome = applySignatureEvent(stored.request, event);
    let result: AppliedOutcome = 'unchanged';
    if (outcome.changed) {
      // The event that completes the request records signature.completed with it (shared/events).
      const completed = outcome.completed ? await signatureCompleted(locator.policyId, outcome.request) : [];
      const saved = await saveAppliedEvent(stored, outcome.request, signatureEventKey(stored.request.id, event), { ...event, received_at: queued.received_at }, completed);
      if (saved === 'concurrent') continue;
      if (saved === 'applied') result = 'applied';
    }
    const current = saved(outcome.request, stored.request, result);
    if (current.is_complete && current.file_id) await flagSigned(locator.policyId, current.file_id, documents);
    return result;
  }
  throw new ConcurrentChangeError(`Signature request ${locator.requestId}`);
}

const saved = (next: SignatureRequest, previous: SignatureRequest, result: AppliedOutcome) => (result === 'applied' ? next : previous);
