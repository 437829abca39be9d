/**
 * The documents store: the only code that knows the documents area's DynamoDB keys and
 * bucket layout (files of policies, the print queue, print runs, inspection requests).
 */
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, s3Client } from '../platform/clients.js';
import { config } from '../platform/config.js';
import { batchGetAll, batchWriteAll, getItem, isConditionalCheckFailure, putItem, queryAll, queryPages, type BatchWriteRequest } from '../platform/dynamo.js';
import { mapLimited } from '../platform/concurrency.js';
import { ConcurrentChangeError } from '../platform/errors.js';
import { RecordChangedError, runTransaction, TRANSACTION_ITEM_LIMIT, type TransactionWrite } from '../platform/transactions.js';
import type { AttachmentRecord, PrintEntry, PrintProcessing, PrintQueueFile, PrintWindow, StoredMailingBatch } from './model.js';
import { PRINT_SHARDS } from './print-shards.js';
import { narrowed } from '../platform/records.js';
import {
  attachmentRecord,
  documentsMigrationRecord,
  inspectionRecord,
  legacyMailingBatchRecord,
  legacyPrintableFileRecord,
  mailingBatchRecord,
  printableEntryRecord,
  printRunRecord,
  waitingEntryRecord,
} from './records.js';
import { clock } from '../platform/clock.js';

/** The item of a file record. It is in no print index: its print entries (below) are. */
export function attachmentItem(record: AttachmentRecord): Record<string, unknown> {
  return attachmentRecord.item(record);
}

/** What the print queue keeps of a file; undefined for a file that never prints. */
export function printEntryOf(record: AttachmentRecord): PrintEntry | undefined {
  if (!record.printDate || record.printState === 'none') return undefined;
  const entry: PrintEntry = {
    fileId: record.fileId,
    policyId: record.policyId,
    policyNumber: record.policyNumber,
    revisionId: record.revisionId,
    agencyId: record.agencyId,
    referenceType: record.referenceType,
    deliverableType: record.deliverableType,
    label: record.label,
    title: record.title,
    printDate: record.printDate,
    recipientContactId: record.recipientContactId,
    recipient: record.recipient,
    parentId: record.parentId,
    childrenIds: record.childrenIds ?? [],
  };
  if (record.electronicDelivery !== undefined) entry.electronicDelivery = record.electronicDelivery;
  if (record.emailTo) entry.emailTo = record.emailTo;
  if (record.emailCc) entry.emailCc = record.emailCc;
  return entry;
}

/**
 * The items of a file: its record, and for a printable file its printable entry and, while it
 * waits to print, its waiting entry. Written together (a transaction), or seeded whole.
 */
export function attachmentItems(record: AttachmentRecord): Array<Record<string, unknown>> {
  const entry = printEntryOf(record);
  if (!entry) return [attachmentItem(record)];
  return [attachmentItem(record), printableEntryRecord.item(entry), ...(record.printState === 'tbd' ? [waitingEntryRecord.item(entry)] : [])];
}

/** The puts of a new file (its record first, on the condition that it is new), as writes of a transaction. */
export function attachmentPuts(record: AttachmentRecord): TransactionWrite[] {
  const [, ...entries] = attachmentItems(record);
  return [attachmentRecord.create(record), ...entries.map((Item) => ({ Put: { TableName: config.tableName(), Item } }))];
}

/** A new file record and its print entries with other areas' writes (its event) in one transaction; false when the record exists already. */
export async function putAttachmentRecordWith(record: AttachmentRecord, handed: readonly TransactionWrite[]): Promise<boolean> {
  try {
    await runTransaction([...attachmentPuts(record), ...handed], { label: `File ${record.fileId}` });
    return true;
  } catch (error) {
    if (error instanceof RecordChangedError && error.index === 0) return false;
    throw error;
  }
}

export async function getAttachmentRecord(fileId: string): Promise<AttachmentRecord | undefined> {
  const item = await getItem(attachmentRecord.key({ fileId }));
  return item ? attachmentRecord.parse(item) : undefined;
}

/** Deletes a file: its record stays flagged `deleted` and leaves every list; its print entries go. */
export async function deleteAttachmentRecord(record: AttachmentRecord): Promise<void> {
  const entry = printEntryOf(record);
  try {
    await runTransaction(
      [
        {
          Update: {
            TableName: config.tableName(),
            Key: attachmentRecord.key(record),
            // Deleting through an update keeps the call conditional on the record being there (gsi2/gsi3: a file of the layout before print entries).
            UpdateExpression: 'SET deleted = :true REMOVE gsi1pk, gsi1sk, gsi2pk, gsi2sk, gsi3pk, gsi3sk',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':true': true },
          },
        },
        ...(entry ? [printableEntryRecord.remove(entry), waitingEntryRecord.remove(entry)] : []),
      ],
      { label: `File ${record.fileId}` },
    );
  } catch (error) {
    if (!(error instanceof RecordChangedError)) throw error;
  }
}

/** A policy's files, oldest first. */
export async function listPolicyAttachments(policyId: string): Promise<AttachmentRecord[]> {
  const items = await queryAll(attachmentRecord.query({ policyId }, { index: 'gsi1' }));
  return items.filter((item) => !item.deleted).map(attachmentRecord.parse);
}

/** Flags a file as electronically signed; false when there is no such file. Setting it twice changes nothing. */
export async function markAttachmentSigned(fileId: string, signedAt = clock.now().toISOString()): Promise<boolean> {
  try {
    await documentClient().send(new UpdateCommand({
      TableName: config.tableName(),
      Key: attachmentRecord.key({ fileId }),
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

/** Files marked printed per transaction: with each file's event, 25 files are 50 of a transaction's 100 writes. */
export const FILES_PER_MARK_TRANSACTION = 25;
/** Mark transactions in flight at once. */
export const MARK_TRANSACTIONS_AT_ONCE = 16;

export interface MarkOptions {
  /** Files a transaction carries (default FILES_PER_MARK_TRANSACTION). */
  filesPerTransaction?: number;
  /** No transaction starts from this instant (epoch ms) on: the files left are answered as not tried (as are those of a transaction throttled past its tries). */
  stopStartingAt?: number;
}

/**
 * Marks files printed: each file's waiting entry is deleted (on the condition that it is
 * there), with the writes `handed` answers for it (its event), files grouped into transactions.
 * A file not waiting (printed already, unknown, deleted, never printable) is not counted; a
 * transaction one of whose files stopped waiting meanwhile is sent again without it. The file
 * records are read (for the entries' keys and the events), never written: the queue says
 * whether a file still waits.
 */
export async function markFilesPrinted(
  fileIds: readonly string[],
  handed: (entry: PrintEntry) => TransactionWrite[] = () => [],
  options: MarkOptions = {},
): Promise<{ marked: number; notTried: number }> {
  const perTransaction = options.filesPerTransaction ?? FILES_PER_MARK_TRANSACTION;
  const records = await batchGetAll<Record<string, unknown>>(fileIds.map((fileId) => attachmentRecord.key({ fileId })), { consistentRead: true, concurrency: 4 });
  const waiting = records
    .filter((item) => !item.deleted && item.printState === 'tbd')
    .map((item) => printEntryOf(attachmentRecord.parse(item)))
    .filter((entry): entry is PrintEntry => entry !== undefined);
  const groups = waiting.map((entry) => [waitingEntryRecord.remove(entry, { exists: true }), ...handed(entry)] satisfies TransactionWrite[]);
  const transactions: TransactionWrite[][][] = [];
  for (const group of groups) {
    const last = transactions.at(-1);
    const writes = last?.reduce((sum, member) => sum + member.length, 0) ?? 0;
    if (last && last.length < perTransaction && writes + group.length <= TRANSACTION_ITEM_LIMIT) last.push(group);
    else transactions.push([group]);
  }
  let notTried = 0;
  const marked = await mapLimited(transactions, MARK_TRANSACTIONS_AT_ONCE, async (members) => {
    if (options.stopStartingAt !== undefined && Date.now() >= options.stopStartingAt) {
      notTried += members.length;
      return 0;
    }
    try {
      return await markGroupsPrinted(members);
    } catch (error) {
      // Throttled past the runner's tries (the events' index partitions at their limit): nothing of it was written; the caller is told to send these again.
      if (!(error instanceof ConcurrentChangeError) || error instanceof RecordChangedError) throw error;
      notTried += members.length;
      return 0;
    }
  });
  return { marked: marked.reduce((sum, count) => sum + count, 0), notTried };
}

/** One transaction of files; a file whose writes failed their condition (no longer waiting) is left out and the rest sent again. */
async function markGroupsPrinted(members: TransactionWrite[][]): Promise<number> {
  let remaining = members;
  while (remaining.length > 0) {
    try {
      await runTransaction(remaining.flat(), { label: `${remaining.length} files to mark printed` });
      return remaining.length;
    } catch (error) {
      if (!(error instanceof RecordChangedError)) throw error;
      const failed = new Set<number>();
      let start = 0;
      remaining.forEach((group, member) => {
        if (error.failure.indexes.some((index) => index >= start && index < start + group.length)) failed.add(member);
        start += group.length;
      });
      remaining = remaining.filter((_, member) => !failed.has(member));
    }
  }
  return 0;
}

export type { PrintWindow } from './model.js';

/** Items read per Query page of one shard of a print window: a shard's page, times the shards, is what an answer may read beyond where it fills. */
export const PRINT_WINDOW_PAGE = 125;

/** Where a file stands in print order (`<printDate>#<fileId>`): the sort key of both print lists, and getToBePrinted's continue_after. */
export const printPositionOf = (entry: Pick<PrintEntry, 'printDate' | 'fileId'>) => printableEntryRecord.key({ ...entry, shard: 0 }).sk;
const positionOf = printPositionOf;

/**
 * One shard of a print list with a print date from `from` to `to` (both `YYYY-MM-DD`,
 * inclusive), in print order, from a position on; claims and the e-delivery preference filtered.
 */
export function printWindowQuery(window: PrintWindow, shard: number) {
  const filters: string[] = [];
  const values: Record<string, unknown> = {};
  if (!window.includeClaims) {
    filters.push('referenceType <> :claims');
    values[':claims'] = 'claims';
  }
  if (window.electronic === 'only') {
    filters.push('electronicDelivery = :true');
    values[':true'] = true;
  } else if (window.electronic === 'exclude') {
    filters.push('(attribute_not_exists(electronicDelivery) OR electronicDelivery = :false)');
    values[':false'] = false;
  }
  // A position is `<printDate>#<fileId>` (continue_after is checked to be one); the window's end takes in every file of its last day.
  const from = window.after ? { printDate: window.after.slice(0, 10), fileId: window.after.slice(11) } : { printDate: window.from };
  const query = (window.source === 'tbd' ? waitingEntryRecord : printableEntryRecord).query({ shard }, { sort: { between: [from, { printDate: window.to, fileId: '~' }] } });
  return filters.length ? narrowed(query, { filter: { expression: filters.join(' AND '), values } }) : query;
}

/** One shard of a print list in print order, read page by page as the caller consumes it. */
async function* shardEntries(window: PrintWindow, shard: number, pageSize: number): AsyncGenerator<PrintEntry, void> {
  for await (const page of queryPages({ ...printWindowQuery(window, shard), Limit: pageSize })) {
    for (const item of page.items) {
      const entry = printableEntryRecord.parse(item);
      // The window starts AT the previous answer's last file (BETWEEN is inclusive): that one was answered.
      if (window.after && positionOf(entry) === window.after) continue;
      yield entry;
    }
  }
}

/** One shard's files with their state: its printable entries, each `tbd` when the same shard's waiting list holds it too. */
async function* shardFiles(window: PrintWindow, shard: number, pageSize: number): AsyncGenerator<PrintQueueFile, void> {
  if (window.source === 'tbd') {
    for await (const entry of shardEntries(window, shard, pageSize)) yield { ...entry, printState: 'tbd' };
    return;
  }
  // Both lists are in print order: walk the waiting one alongside (it holds a subset of the printable one).
  const waiting = shardEntries({ ...window, source: 'tbd' }, shard, pageSize);
  let next = await waiting.next();
  for await (const entry of shardEntries(window, shard, pageSize)) {
    const position = positionOf(entry);
    while (!next.done && positionOf(next.value) < position) next = await waiting.next();
    yield { ...entry, printState: !next.done && positionOf(next.value) === position ? 'tbd' : 'printed' };
  }
  await waiting.return(undefined);
}

/**
 * The files of a print window in print order (print date, then file id), every shard read page
 * by page as the caller consumes the merged order: a caller that stops early reads no further page.
 */
export async function* filesInPrintOrder(window: PrintWindow, pageSize = PRINT_WINDOW_PAGE): AsyncGenerator<PrintQueueFile, void> {
  const shards = Array.from({ length: PRINT_SHARDS }, (_, shard) => shardFiles(window, shard, pageSize));
  const heads = await Promise.all(shards.map((shard) => shard.next()));
  for (;;) {
    let first = -1;
    heads.forEach((head, shard) => {
      if (head.done) return;
      if (first < 0 || positionOf(head.value) < positionOf(heads[first].value as PrintQueueFile)) first = shard;
    });
    if (first < 0) return;
    const head = heads[first];
    if (head.done) return;
    yield head.value;
    heads[first] = await shards[first].next();
  }
}

/** One shard's printable files (printed or not) with a print date in [from, to], claims included: what the nightly run batches. */
export async function printableFilesOfShard(from: string, to: string, shard: number): Promise<PrintEntry[]> {
  const entries: PrintEntry[] = [];
  for await (const entry of shardEntries({ source: 'printable', from, to, includeClaims: true }, shard, 1000)) entries.push(entry);
  return entries;
}

// ---------------------------------------------------------------- the layout before print entries

export async function documentsMigrationDone(name: string): Promise<boolean> {
  return !!(await getItem(documentsMigrationRecord.key({ name })));
}

export async function markDocumentsMigrationDone(name: string, outcome: Record<string, unknown>): Promise<void> {
  await putItem(documentsMigrationRecord.put({ name, finishedAt: clock.now().toISOString(), ...outcome }));
}

/** The partitions of the old layout's two print lists (their templates name no attribute). */
const LEGACY_LISTS = { waiting: legacyPrintableFileRecord.declaration.indexes!.gsi2!.pk, printable: legacyPrintableFileRecord.declaration.indexes!.gsi3!.pk };

/** Pages of the file records still indexed whole on the old print index (gsi3 `PRINTABLE`). */
export async function* legacyPrintableFiles(): AsyncGenerator<Array<AttachmentRecord & { waiting: boolean }>, void> {
  for await (const page of queryPages(legacyPrintableFileRecord.query({}, { index: 'gsi3' }))) {
    yield page.items.map((item) => ({ ...legacyPrintableFileRecord.parse(item), waiting: item.gsi2pk === LEGACY_LISTS.waiting }));
  }
}

/**
 * Moves one file of the old layout to print entries: its printable entry, its waiting entry if
 * it was still in the old queue, and its record out of both old indexes, in one transaction on
 * the condition that the record is still as read (false: it changed, or moved already).
 */
export async function moveFileToPrintEntries(record: AttachmentRecord, waiting: boolean): Promise<boolean> {
  const entry = printEntryOf({ ...record, printState: waiting ? 'tbd' : 'printed' });
  if (!entry) return false;
  const [, ...entries] = attachmentItems({ ...record, printState: waiting ? 'tbd' : 'printed' });
  try {
    await runTransaction(
      [
        {
          Update: {
            TableName: config.tableName(),
            Key: legacyPrintableFileRecord.key(record),
            UpdateExpression: 'REMOVE gsi2pk, gsi2sk, gsi3pk, gsi3sk',
            ConditionExpression: `gsi3pk = :printable AND ${waiting ? 'gsi2pk = :queue' : 'attribute_not_exists(gsi2pk)'} AND attribute_not_exists(deleted)`,
            ExpressionAttributeValues: { ':printable': LEGACY_LISTS.printable, ...(waiting ? { ':queue': LEGACY_LISTS.waiting } : {}) },
          },
        },
        ...entries.map((Item) => ({ Put: { TableName: config.tableName(), Item } })),
      ],
      { label: `File ${record.fileId}` },
    );
    return true;
  } catch (error) {
    if (error instanceof RecordChangedError) return false;
    throw error;
  }
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
  /** Set by runs fanned out by shard: their envelopes are stored by shard (runs before: in one partition). */
  shards?: number;
  /** The shards of the current run done so far, and what they put in envelopes. */
  shardsDone?: Set<string> | string[];
  shardFiles?: number;
  shardBatches?: number;
  finishedRun?: number;
}

export async function getPrintRun(printDate: string): Promise<PrintRunRecord | undefined> {
  const item = await getItem(printRunRecord.key({ printDate }));
  return item ? printRunRecord.parse(item) : undefined;
}

/** The runs of several print dates, by date (dates never run are absent). */
export async function printRunsOf(printDates: readonly string[]): Promise<Map<string, PrintRunRecord>> {
  const items = await batchGetAll<Record<string, unknown>>(printDates.map((printDate) => printRunRecord.key({ printDate })), { consistentRead: true, concurrency: 4 });
  return new Map(items.map((item) => [item.printDate as string, printRunRecord.parse(item)]));
}

export async function printRunState(printDate: string): Promise<PrintProcessing> {
  return (await getPrintRun(printDate))?.state ?? 'not started';
}

/**
 * Records that a run of `printDate` starts over `shards` shards and answers its number; a run
 * already done stays done until this run finishes. The shards' tallies start again.
 */
export async function startPrintRun(printDate: string, startedAt: string, shards = PRINT_SHARDS): Promise<number> {
  const updated = await documentClient().send(new UpdateCommand({
    TableName: config.tableName(),
    Key: printRunRecord.key({ printDate }),
    UpdateExpression:
      'SET printDate = :date, #state = if_not_exists(#state, :incomplete), startedAt = if_not_exists(startedAt, :at), runs = if_not_exists(runs, :zero) + :one, shards = :shards, shardFiles = :zero, shardBatches = :zero REMOVE shardsDone',
    ExpressionAttributeNames: { '#state': 'state' },
    ExpressionAttributeValues: { ':date': printDate, ':incomplete': 'incomplete', ':at': startedAt, ':zero': 0, ':one': 1, ':shards': shards },
    ReturnValues: 'UPDATED_NEW',
  }));
  return updated.Attributes!.runs as number;
}

/**
 * Counts one shard of run `run` done, once however often its message comes; answers the run as
 * it stands after, or undefined when a later run has started since (this shard's work is then that run's).
 */
export async function recordPrintShardDone(printDate: string, run: number, shard: number, tally: { files: number; batches: number }): Promise<PrintRunRecord | undefined> {
  try {
    const updated = await documentClient().send(new UpdateCommand({
      TableName: config.tableName(),
      Key: printRunRecord.key({ printDate }),
      UpdateExpression: 'ADD shardsDone :shard, shardFiles :files, shardBatches :batches',
      ConditionExpression: 'runs = :run AND NOT contains(shardsDone, :shardName)',
      ExpressionAttributeValues: { ':shard': new Set([String(shard)]), ':shardName': String(shard), ':files': tally.files, ':batches': tally.batches, ':run': run },
      ReturnValues: 'ALL_NEW',
    }));
    return printRunRecord.parse(updated.Attributes!);
  } catch (error) {
    if (!isConditionalCheckFailure(error)) throw error;
    const current = await getPrintRun(printDate);
    return current?.runs === run ? current : undefined;
  }
}

/** Ends run `run` (once): `done`, with what its shards put in envelopes. */
export async function finishPrintRun(printDate: string, run: number, summary: { batches: number; files: number; finishedAt: string }): Promise<void> {
  try {
    await documentClient().send(new UpdateCommand({
      TableName: config.tableName(),
      Key: printRunRecord.key({ printDate }),
      UpdateExpression: 'SET #state = :done, batches = :batches, files = :files, finishedAt = :at, finishedRun = :run',
      ConditionExpression: 'runs = :run AND (attribute_not_exists(finishedRun) OR finishedRun <> :run)',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':done': 'done', ':batches': summary.batches, ':files': summary.files, ':at': summary.finishedAt, ':run': run },
    }));
  } catch (error) {
    // Finished already, or a later run started: that run finishes itself.
    if (!isConditionalCheckFailure(error)) throw error;
  }
}

/**
 * Writes the mailing batches of a print date, 25 per BatchWriteItem, several at once, each in
 * the shard of its policy. A batch's label is derived from its envelope, so writing the same
 * batches again changes nothing.
 */
export async function putMailingBatches(batches: readonly StoredMailingBatch[]): Promise<void> {
  const requests: BatchWriteRequest[] = batches.map((batch) => ({ PutRequest: { Item: mailingBatchRecord.item(batch) } }));
  await batchWriteAll(requests, { concurrency: 8 });
}

/** The envelopes of a print date in one shard (`shard` undefined: the one partition of runs before sharding). */
export async function mailingBatchesOfShard(printDate: string, shard?: number): Promise<StoredMailingBatch[]> {
  const query = shard === undefined ? legacyMailingBatchRecord.query({ printDate }) : mailingBatchRecord.query({ printDate, shard });
  return (await queryAll(query)).map(mailingBatchRecord.parse);
}

/** Every envelope of a print date, whichever layout its run wrote. */
export async function mailingBatchesOf(printDate: string): Promise<StoredMailingBatch[]> {
  const run = await getPrintRun(printDate);
  if (!run) return [];
  if (!run.shards) return mailingBatchesOfShard(printDate);
  const shards = await Promise.all(Array.from({ length: run.shards }, (_, shard) => mailingBatchesOfShard(printDate, shard)));
  return shards.flat().sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
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
export function inspectionPut(record: InspectionRecord): TransactionWrite {
  return inspectionRecord.create(record);
}

export async function inspectionsOf(propertyId: string): Promise<InspectionRecord[]> {
  return (await queryAll(inspectionRecord.query({ propertyId }))).map(inspectionRecord.parse);
}

// ---------------------------------------------------------------- the bucket

/** Where a file's bytes live in the bucket: one folder per file, under its policy. */
export const fileFolder = (policyId: string, fileId: string) => `policies/${policyId}/files/${fileId}/`;

export function objectKeyOf(policyId: string, fileId: string, fileName: string): string {
  return `${fileFolder(policyId, fileId)}${fileName}`;
}

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
