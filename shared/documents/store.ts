/**
 * The documents store: the only code that knows the documents area's DynamoDB keys and
 * bucket layout (files of policies, the print queue, print runs, inspection requests).
 */
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, s3Client } from '../platform/clients.js';
import { config } from '../platform/config.js';
import { batchWriteAll, isConditionalCheckFailure, queryAll, queryPages, type BatchWriteRequest } from '../platform/dynamo.js';
import { RecordChangedError, runTransaction, type TransactionWrite } from '../platform/transactions.js';
import {
  fileFolder,
  fileKey,
  inspectionKey,
  inspectionsQuery,
  mailingBatchesQuery,
  mailingBatchKey,
  policyFilesIndex,
  policyFilesQuery,
  printableIndex,
  printPosition,
  printQueueIndex,
  printRunKey,
  printWindowQuery,
  type PrintWindow,
} from './keys.js';
import type { AttachmentRecord, PrintProcessing, StoredMailingBatch } from './model.js';

const STORAGE_ATTRIBUTES = ['pk', 'sk', 'entity', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'gsi3pk', 'gsi3sk'] as const;

function withoutKeys<T>(item: Record<string, unknown>): T {
  const copy = { ...item };
  for (const attribute of STORAGE_ATTRIBUTES) delete copy[attribute];
  return copy as T;
}

/** The item of a file record, with the indexes its state puts it in. */
export function attachmentItem(record: AttachmentRecord): Record<string, unknown> {
  return {
    ...fileKey(record.fileId),
    entity: 'Attachment',
    ...policyFilesIndex(record.policyId, record.createdAt, record.fileId),
    ...(record.printDate && record.printState === 'tbd' ? printQueueIndex(record.printDate, record.fileId) : {}),
    ...(record.printDate && record.printState !== 'none' ? printableIndex(record.printDate, record.fileId) : {}),
    ...record,
  };
}

/** The put of a new file record, as one write of a transaction (a policy move's). */
export function attachmentPut(record: AttachmentRecord) {
  return { Put: { TableName: config.tableName(), Item: attachmentItem(record), ConditionExpression: 'attribute_not_exists(pk)' } };
}

export async function putAttachmentRecord(record: AttachmentRecord): Promise<void> {
  await documentClient().send(new PutCommand(attachmentPut(record).Put));
}

/** A new file record with other areas' writes (its event) in one transaction; false when the record exists already. */
export async function putAttachmentRecordWith(record: AttachmentRecord, handed: readonly TransactionWrite[]): Promise<boolean> {
  try {
    await runTransaction([attachmentPut(record), ...handed], { label: `File ${record.fileId}` });
    return true;
  } catch (error) {
    if (error instanceof RecordChangedError && error.index === 0) return false;
    throw error;
  }
}

export async function getAttachmentRecord(fileId: string): Promise<AttachmentRecord | undefined> {
  const found = await documentClient().send(new GetCommand({ TableName: config.tableName(), Key: fileKey(fileId), ConsistentRead: true }));
  return found.Item ? withoutKeys<AttachmentRecord>(found.Item) : undefined;
}

export async function deleteAttachmentRecord(fileId: string): Promise<void> {
  await documentClient().send(new UpdateCommand({
    TableName: config.tableName(),
    Key: fileKey(fileId),
    // Deleting through an update keeps the call conditional on the record being there.
    UpdateExpression: 'SET deleted = :true REMOVE gsi1pk, gsi1sk, gsi2pk, gsi2sk, gsi3pk, gsi3sk',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':true': true },
  })).catch((error) => {
    if (!isConditionalCheckFailure(error)) throw error;
  });
}

/** A policy's files, oldest first. */
export async function listPolicyAttachments(policyId: string): Promise<AttachmentRecord[]> {
  const items = await queryAll(policyFilesQuery(policyId));
  return items.filter((item) => !item.deleted).map((item) => withoutKeys<AttachmentRecord>(item));
}

/** Flags a file as electronically signed; false when there is no such file. Setting it twice changes nothing. */
export async function markAttachmentSigned(fileId: string, signedAt = new Date().toISOString()): Promise<boolean> {
  try {
    await documentClient().send(new UpdateCommand({
      TableName: config.tableName(),
      Key: fileKey(fileId),
      UpdateExpression: 'SET esigned = :true, signedAt = if_not_exists(signedAt, :at)',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deleted)',
      ExpressionAttributeValues: { ':true': true, ':at': signedAt },
    }));
    return true;
  } catch (error) {
    if (isConditionalCheckFailure(error)) return false;
    throw error;
  }
}

/**
 * Marks one file printed (leaving the print queue), with the writes `handed` answers for the
 * file (its event) in the same transaction; false when it was not waiting to print.
 */
export async function markFilePrinted(fileId: string, printedAt: string, handed: (record: AttachmentRecord) => TransactionWrite[] = () => []): Promise<boolean> {
  const record = await getAttachmentRecord(fileId);
  if (!record || record.printState !== 'tbd') return false;
  try {
    await runTransaction(
      [
        {
          Update: {
            TableName: config.tableName(),
            Key: fileKey(fileId),
            UpdateExpression: 'SET printState = :printed, printedAt = :at REMOVE gsi2pk, gsi2sk',
            ConditionExpression: 'printState = :tbd AND attribute_not_exists(deleted)',
            ExpressionAttributeValues: { ':printed': 'printed', ':tbd': 'tbd', ':at': printedAt },
          },
        },
        ...handed(record),
      ],
      { label: `File ${fileId}` },
    );
    return true;
  } catch (error) {
    if (error instanceof RecordChangedError && error.index === 0) return false;
    throw error;
  }
}

export type { PrintWindow } from './keys.js';

/** Items read per Query page of a print window: the answer stops within a page of where it fills. */
export const PRINT_WINDOW_PAGE = 500;

/**
 * The files of a print window in print order (print date, then file id), read page by page
 * as the caller consumes them: a caller that stops early reads no further page.
 */
export async function* filesInPrintOrder(window: PrintWindow, pageSize = PRINT_WINDOW_PAGE): AsyncGenerator<AttachmentRecord, void> {
  for await (const page of queryPages({ ...printWindowQuery(window), Limit: pageSize })) {
    for (const item of page.items) {
      // The window starts AT the previous answer's last file (BETWEEN is inclusive): that one was answered.
      if (window.after && printPosition(item.printDate as string, item.fileId as string) === window.after) continue;
      yield withoutKeys<AttachmentRecord>(item);
    }
  }
}

/** Every printable file (printed or not) with a print date in [from, to], claims included. */
export async function printableFiles(from: string, to: string): Promise<AttachmentRecord[]> {
  const files: AttachmentRecord[] = [];
  for await (const file of filesInPrintOrder({ source: 'printable', from, to, includeClaims: true })) files.push(file);
  return files;
}

// ---------------------------------------------------------------- print runs

export interface PrintRunRecord {
  printDate: string;
  state: PrintProcessing;
  runs: number;
  startedAt: string;
  finishedAt?: string;
  batches?: number;
  files?: number;
}

export async function getPrintRun(printDate: string): Promise<PrintRunRecord | undefined> {
  const found = await documentClient().send(new GetCommand({ TableName: config.tableName(), Key: printRunKey(printDate), ConsistentRead: true }));
  return found.Item ? withoutKeys<PrintRunRecord>(found.Item) : undefined;
}

export async function printRunState(printDate: string): Promise<PrintProcessing> {
  return (await getPrintRun(printDate))?.state ?? 'not started';
}

/** Records that the run of `printDate` started; a run already done stays done until this run finishes. */
export async function startPrintRun(printDate: string, startedAt: string): Promise<void> {
  await documentClient().send(new UpdateCommand({
    TableName: config.tableName(),
    Key: printRunKey(printDate),
    UpdateExpression: 'SET printDate = :date, #state = if_not_exists(#state, :incomplete), startedAt = if_not_exists(startedAt, :at), runs = if_not_exists(runs, :zero) + :one',
    ExpressionAttributeNames: { '#state': 'state' },
    ExpressionAttributeValues: { ':date': printDate, ':incomplete': 'incomplete', ':at': startedAt, ':zero': 0, ':one': 1 },
  }));
}

export async function finishPrintRun(printDate: string, summary: { batches: number; files: number; finishedAt: string }): Promise<void> {
  await documentClient().send(new UpdateCommand({
    TableName: config.tableName(),
    Key: printRunKey(printDate),
    UpdateExpression: 'SET #state = :done, batches = :batches, files = :files, finishedAt = :at',
    ExpressionAttributeNames: { '#state': 'state' },
    ExpressionAttributeValues: { ':done': 'done', ':batches': summary.batches, ':files': summary.files, ':at': summary.finishedAt },
  }));
}

/**
 * Writes the mailing batches of a print date, 25 per BatchWriteItem, several at once. A
 * batch's label is derived from its envelope, so writing the same batches again changes nothing.
 */
export async function putMailingBatches(batches: readonly StoredMailingBatch[]): Promise<void> {
  const requests: BatchWriteRequest[] = batches.map((batch) => ({
    PutRequest: { Item: { ...mailingBatchKey(batch.printDate, batch.label), entity: 'MailingBatch', ...batch } },
  }));
  await batchWriteAll(requests, { concurrency: 8 });
}

export async function mailingBatchesOf(printDate: string): Promise<StoredMailingBatch[]> {
  return (await queryAll(mailingBatchesQuery(printDate))).map((item) => withoutKeys<StoredMailingBatch>(item));
}

// ---------------------------------------------------------------- inspections

export interface InspectionRecord {
  inspectionId: string;
  propertyId: string;
  revisionId: string;
  policyId: string;
  vendor: string;
  vendorReference: string;
  status: string;
  requestedDate: string;
  requestedAt: string;
  requestedBy: string;
  details: Record<string, string>;
}

/** The put of a new inspection request, as one write of a transaction (with the property's requested date). */
export function inspectionPut(record: InspectionRecord) {
  return {
    Put: {
      TableName: config.tableName(),
      Item: { ...inspectionKey(record.propertyId, record.inspectionId), entity: 'Inspection', ...record },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

export async function inspectionsOf(propertyId: string): Promise<InspectionRecord[]> {
  return (await queryAll(inspectionsQuery(propertyId))).map((item) => withoutKeys<InspectionRecord>(item));
}

// ---------------------------------------------------------------- the bucket

export function objectKeyOf(policyId: string, fileId: string, fileName: string): string {
  return `${fileFolder(policyId, fileId)}${fileName}`;
}

export { fileFolder };

export async function putFileBytes(objectKey: string, bytes: Uint8Array, contentType: string): Promise<void> {
  await s3Client().send(new PutObjectCommand({ Bucket: config.bucketName(), Key: objectKey, Body: bytes, ContentType: contentType }));
}

export async function getFileBytes(objectKey: string): Promise<Uint8Array | undefined> {
  try {
    const found = await s3Client().send(new GetObjectCommand({ Bucket: config.bucketName(), Key: objectKey }));
    return found.Body ? await found.Body.transformToByteArray() : undefined;
  } catch (error) {
    if ((error as { name?: string }).name === 'NoSuchKey') return undefined;
    throw error;
  }
}

export async function deleteFileBytes(objectKey: string): Promise<void> {
  await s3Client().send(new DeleteObjectCommand({ Bucket: config.bucketName(), Key: objectKey }));
}

export const bucketUrl = (path: string) => `s3://${config.bucketName()}/${path}`;
