/**
 * The signatures area's store: the only code that knows its keys (records.ts). Requests are
 * versioned; an event is applied by one transaction that updates the request on its read
 * version and creates the event's de-duplication record, so a duplicate delivery or a
 * concurrent one changes nothing twice.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../platform/clients.js';
import { config } from '../platform/config.js';
import { getItem, isConditionalCheckFailure, putItem, queryAll } from '../platform/dynamo.js';
import { RecordChangedError, runTransaction, type TransactionWrite } from '../platform/transactions.js';
import {
  appliedSignatureEventRecord,
  pendingSignatureRequestRecord,
  signableFileRecord,
  signatureLocatorRecord,
  signatureRequestRecord,
  vendorRequestRecord,
} from './records.js';
import type { SignatureRequest } from './model.js';
import { BusinessRuleError } from '../platform/errors.js';
import { clock } from '../platform/clock.js';

/** A request as stored: the wire shape plus what the service keeps beside it. */
export interface StoredSignatureRequest {
  request: SignatureRequest;
  policyId: string;
  vendor: string;
  createdAt: string;
  version: number;
}

/** A file sent for signature (the documents area owns the file itself). */
export interface SignableFileRecord {
  fileId: string;
  policyId: string;
  requestId: string;
  title: string;
  docType: string;
  esigned: boolean;
  signedAt?: string;
}

export interface SignatureLocator {
  id: string;
  kind: 'request' | 'signature' | 'file';
  policyId: string;
  requestId: string;
}

/** One vendor event applied to a request (its de-duplication record, keyed by the event's natural key). */
export interface AppliedSignatureEvent {
  requestId: string;
  event: Record<string, unknown>;
  appliedAt: string;
}

/** The request of a policy awaiting signatures, and its file. */
export interface PendingSignatureRequest {
  requestId: string;
  fileId: string;
}

/** The built-in vendor's own state of a request (it is a vendor: it keeps its own books). */
export interface VendorRequestRecord {
  requestId: string;
  policyId: string;
  fileId: string;
  title: string;
  canceled: boolean;
  signers: Array<{ signatureId: string; name: string; email: string; signedAt?: string }>;
  version: number;
}

const table = () => config.tableName();

/** Another request of the policy was created first (both passed the read-before-write check). */
export class SignatureRequestPendingError extends BusinessRuleError {}

/** Frees the policy for a new request once this one is canceled or complete (absent for requests stored before the guard). */
function releasePendingGuard(policyId: string, requestId: string) {
  return {
    Delete: {
      ...pendingSignatureRequestRecord.remove({ policyId }).Delete!,
      ConditionExpression: 'attribute_not_exists(pk) OR requestId = :request',
      ExpressionAttributeValues: { ':request': requestId },
    },
  };
}

const isSettled = (request: SignatureRequest) => request.is_canceled || request.is_complete;

/** The request replaced on the version it was read at; a settled one frees the policy for the next request. */
function requestReplaced(stored: StoredSignatureRequest, next: SignatureRequest) {
  return [
    {
      Update: {
        TableName: table(),
        Key: signatureRequestRecord.key({ policyId: stored.policyId, requestId: next.id }),
        UpdateExpression: 'SET #request = :request, version = :next',
        ConditionExpression: 'version = :read',
        ExpressionAttributeNames: { '#request': 'request' },
        ExpressionAttributeValues: { ':request': next, ':next': stored.version + 1, ':read': stored.version },
      },
    },
    ...(isSettled(next) ? [releasePendingGuard(stored.policyId, next.id)] : []),
  ];
}

/**
 * Creates a request, its file record, its locators and the policy's pending-request guard in
 * one transaction: refused with SignatureRequestPendingError when another request holds the guard.
 */
export async function createSignatureRequest(stored: StoredSignatureRequest, file: SignableFileRecord): Promise<void> {
  const locators: SignatureLocator[] = [
    { id: stored.request.id, kind: 'request', policyId: stored.policyId, requestId: stored.request.id },
    ...stored.request.signatures.map((signature): SignatureLocator => ({ id: signature.id, kind: 'signature', policyId: stored.policyId, requestId: stored.request.id })),
  ];
  const fileLocator: SignatureLocator = { id: file.fileId, kind: 'file', policyId: stored.policyId, requestId: stored.request.id };
  await runTransaction(
    [
      pendingSignatureRequestRecord.create({ requestId: stored.request.id, fileId: file.fileId }, { policyId: stored.policyId }),
      signatureRequestRecord.create(stored, { requestId: stored.request.id }),
      // A file signed again by a newer request points at the newer one.
      signableFileRecord.put(file),
      signatureLocatorRecord.put(fileLocator),
      ...locators.map((locator) => signatureLocatorRecord.create(locator)),
    ],
    {
      label: `Signature request ${stored.request.id}`,
      // A request racing this one holds the guard (the runner retries a bare conflict until one of them has it).
      onConditionFailed: (failure) =>
        failure.index === 0 ? new SignatureRequestPendingError('Another signature request of this policy is being requested or still awaiting signatures; cancel it before requesting another') : undefined,
    },
  );
}

export async function findSignatureLocator(id: string): Promise<SignatureLocator | undefined> {
  const item = await getItem(signatureLocatorRecord.key({ id }));
  return item ? signatureLocatorRecord.parse(item) : undefined;
}

export async function getSignatureRequest(policyId: string, requestId: string): Promise<StoredSignatureRequest | undefined> {
  const item = await getItem(signatureRequestRecord.key({ policyId, requestId }));
  return item ? signatureRequestRecord.parse(item) : undefined;
}

/** A policy's requests, oldest first. */
export async function listSignatureRequests(policyId: string): Promise<StoredSignatureRequest[]> {
  const items = await queryAll(signatureRequestRecord.query({ policyId }, { consistent: true }));
  return items
    .map(signatureRequestRecord.parse)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.request.id.localeCompare(b.request.id));
}

export async function listSignableFiles(policyId: string): Promise<SignableFileRecord[]> {
  return (await queryAll(signableFileRecord.query({ policyId }, { consistent: true }))).map(signableFileRecord.parse);
}

export async function getSignableFile(policyId: string, fileId: string): Promise<SignableFileRecord | undefined> {
  const item = await getItem(signableFileRecord.key({ policyId, fileId }));
  return item ? signableFileRecord.parse(item) : undefined;
}

/** Flags the file esigned; true when this call flagged it, false when it already was. */
export async function markSignableFileSigned(policyId: string, fileId: string, signedAt: string): Promise<boolean> {
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: table(),
        Key: signableFileRecord.key({ policyId, fileId }),
        UpdateExpression: 'SET esigned = :yes, signedAt = :at',
        ConditionExpression: 'attribute_exists(pk) AND esigned <> :yes',
        ExpressionAttributeValues: { ':yes': true, ':at': signedAt },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionalCheckFailure(error)) return false;
    throw error;
  }
}

export type EventApplication = 'applied' | 'duplicate' | 'concurrent';

/**
 * Stores the request as an event left it, on the version it was read at, together with the
 * event's de-duplication record: `duplicate` when that event was applied before, `concurrent`
 * when another writer changed the request since it was read (read again and retry).
 */
export async function saveAppliedEvent(stored: StoredSignatureRequest, next: SignatureRequest, eventKey: string, event: Record<string, unknown>, handed: readonly TransactionWrite[] = []): Promise<EventApplication> {
  try {
    await runTransaction(
        [
          appliedSignatureEventRecord.create({ requestId: next.id, event, appliedAt: clock.now().toISOString() }, { policyId: stored.policyId, eventKey }),
          ...requestReplaced(stored, next),
          ...handed,
        ],
      { label: `Signature request ${next.id}` },
    );
    return 'applied';
  } catch (error) {
    if (error instanceof RecordChangedError) return error.index === 0 ? 'duplicate' : 'concurrent';
    throw error;
  }
}

/** Replaces the request on its read version (cancel); false when another writer came first. */
export async function saveSignatureRequest(stored: StoredSignatureRequest, next: SignatureRequest): Promise<boolean> {
  try {
    await runTransaction(
      [
        ...requestReplaced(stored, next),
      ],
      { label: `Signature request ${next.id}` },
    );
    return true;
  } catch (error) {
    if (error instanceof RecordChangedError && error.index === 0) return false;
    throw error;
  }
}

// ---------------------------------------------------------------- the built-in vendor's books

export async function putVendorRequest(record: VendorRequestRecord): Promise<void> {
  await putItem(vendorRequestRecord.create(record));
}

export async function getVendorRequest(requestId: string): Promise<VendorRequestRecord | undefined> {
  const item = await getItem(vendorRequestRecord.key({ requestId }));
  return item ? vendorRequestRecord.parse(item) : undefined;
}

/** Saves the vendor's record on its read version; false when another writer came first. */
export async function saveVendorRequest(read: VendorRequestRecord, next: Omit<VendorRequestRecord, 'version'>): Promise<boolean> {
  try {
    await putItem(vendorRequestRecord.replace({ ...next, version: read.version }, read.version, { requestId: read.requestId }));
    return true;
  } catch (error) {
    if (isConditionalCheckFailure(error)) return false;
    throw error;
  }
}
