/**
 * The signatures area's store: the only code that knows its keys (keys.ts). Requests are
 * versioned; an event is applied by one transaction that updates the request on its read
 * version and creates the event's de-duplication record, so a duplicate delivery or a
 * concurrent one changes nothing twice.
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../platform/clients.js';
import { config } from '../platform/config.js';
import { isConditionalCheckFailure, queryAll } from '../platform/dynamo.js';
import { RecordChangedError, runTransaction, type TransactionWrite } from '../platform/transactions.js';
import {
  appliedEventKey,
  policyFilesQuery,
  pendingRequestGuardKey,
  policyRequestsQuery,
  signableFileKey,
  signatureLocatorKey,
  signatureRequestKey,
  vendorRequestKey,
} from './keys.js';
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
      TableName: table(),
      Key: pendingRequestGuardKey(policyId),
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
        Key: signatureRequestKey(stored.policyId, next.id),
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
  const guard = {
    Put: {
      TableName: table(),
      Item: { ...pendingRequestGuardKey(stored.policyId), entity: 'PendingSignatureRequest', requestId: stored.request.id, fileId: file.fileId },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
  await runTransaction(
    [
      guard,
      { Put: { TableName: table(), Item: { ...signatureRequestKey(stored.policyId, stored.request.id), entity: 'SignatureRequest', ...stored }, ConditionExpression: 'attribute_not_exists(pk)' } },
      // A file signed again by a newer request points at the newer one.
      { Put: { TableName: table(), Item: { ...signableFileKey(file.policyId, file.fileId), entity: 'SignableFile', ...file } } },
      { Put: { TableName: table(), Item: { ...signatureLocatorKey(file.fileId), entity: 'SignatureLocator', ...fileLocator } } },
      ...locators.map((locator) => ({
        Put: { TableName: table(), Item: { ...signatureLocatorKey(locator.id), entity: 'SignatureLocator', ...locator }, ConditionExpression: 'attribute_not_exists(pk)' },
      })),
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
  const { Item } = await documentClient().send(new GetCommand({ TableName: table(), Key: signatureLocatorKey(id), ConsistentRead: true }));
  return Item as SignatureLocator | undefined;
}

export async function getSignatureRequest(policyId: string, requestId: string): Promise<StoredSignatureRequest | undefined> {
  const { Item } = await documentClient().send(new GetCommand({ TableName: table(), Key: signatureRequestKey(policyId, requestId), ConsistentRead: true }));
  return Item ? strip<StoredSignatureRequest>(Item, ['request', 'policyId', 'vendor', 'createdAt', 'version']) : undefined;
}

/** A policy's requests, oldest first. */
export async function listSignatureRequests(policyId: string): Promise<StoredSignatureRequest[]> {
  const items = await queryAll(policyRequestsQuery(table(), policyId));
  return items
    .map((item) => strip<StoredSignatureRequest>(item, ['request', 'policyId', 'vendor', 'createdAt', 'version']))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.request.id.localeCompare(b.request.id));
}

export async function listSignableFiles(policyId: string): Promise<SignableFileRecord[]> {
  const items = await queryAll(policyFilesQuery(table(), policyId));
  return items.map((item) => strip<SignableFileRecord>(item, ['fileId', 'policyId', 'requestId', 'title', 'docType', 'esigned', 'signedAt']));
}

export async function getSignableFile(policyId: string, fileId: string): Promise<SignableFileRecord | undefined> {
  const { Item } = await documentClient().send(new GetCommand({ TableName: table(), Key: signableFileKey(policyId, fileId), ConsistentRead: true }));
  return Item ? strip<SignableFileRecord>(Item, ['fileId', 'policyId', 'requestId', 'title', 'docType', 'esigned', 'signedAt']) : undefined;
}

/** Flags the file esigned; true when this call flagged it, false when it already was. */
export async function markSignableFileSigned(policyId: string, fileId: string, signedAt: string): Promise<boolean> {
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: table(),
        Key: signableFileKey(policyId, fileId),
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
          {
            Put: {
              TableName: table(),
              Item: { ...appliedEventKey(stored.policyId, eventKey), entity: 'AppliedSignatureEvent', requestId: next.id, event, appliedAt: clock.now().toISOString() },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
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
  await documentClient().send(
    new PutCommand({ TableName: table(), Item: { ...vendorRequestKey(record.requestId), entity: 'BuiltInVendorRequest', ...record }, ConditionExpression: 'attribute_not_exists(pk)' }),
  );
}

export async function getVendorRequest(requestId: string): Promise<VendorRequestRecord | undefined> {
  const { Item } = await documentClient().send(new GetCommand({ TableName: table(), Key: vendorRequestKey(requestId), ConsistentRead: true }));
  return Item ? strip<VendorRequestRecord>(Item, ['requestId', 'policyId', 'fileId', 'title', 'canceled', 'signers', 'version']) : undefined;
}

/** Saves the vendor's record on its read version; false when another writer came first. */
export async function saveVendorRequest(read: VendorRequestRecord, next: Omit<VendorRequestRecord, 'version'>): Promise<boolean> {
  try {
    await documentClient().send(
      new PutCommand({
        TableName: table(),
        Item: { ...vendorRequestKey(read.requestId), entity: 'BuiltInVendorRequest', ...next, version: read.version + 1 },
        ConditionExpression: 'version = :read',
        ExpressionAttributeValues: { ':read': read.version },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionalCheckFailure(error)) return false;
    throw error;
  }
}

function strip<T>(item: Record<string, unknown>, fields: ReadonlyArray<keyof T & string>): T {
  const picked: Record<string, unknown> = {};
  for (const field of fields) if (item[field] !== undefined) picked[field] = item[field];
  return picked as T;
}
