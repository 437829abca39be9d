/**
 * Print runs of any size (issue 22, item 2): markAsPrinted over thousands of files in one call,
 * each file printed once with its deliverable.printed event whatever the overlap of calls, at the
 * write cost DynamoDB reports; the nightly print run fanned out by shard over thousands of
 * deliverables, every file in exactly one envelope; and files of the layout before print entries
 * still found once the migration has moved them.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Context, SQSEvent } from 'aws-lambda';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
// Before the first DynamoDB client exists: every call's consumed capacity is metered.
process.env.MEASURE_DYNAMODB_CAPACITY = 'true';
// Before markAsPrinted's input schema is built: a deployment's lower ceiling (the published 20,000 is the
// bench's, npm run bench -- print-runs). A call at the ceiling takes the same path at a tenth of the ids.
vi.hoisted(() => {
  process.env.MARK_AS_PRINTED_MAX_FILES = '2000';
});
import { handler as assignMailingBatches } from '../../events/queues/print-batches/assign_mailing_batches.js';
import { PRINT_SHARDS } from '../../shared/documents/print-shards.js';
import type { AttachmentRecord } from '../../shared/documents/model.js';
import { movePrintQueueToEntries } from '../../shared/documents/print-entries-migration.js';
import { MARK_AS_PRINTED_MAX_FILES, markAsPrinted, MarkingCutShortError } from '../../shared/documents/print-service.js';
import { attachmentItem, attachmentItems, getPrintRun, mailingBatchesOf, markFilesPrinted } from '../../shared/documents/store.js';
import { eventsAfter } from '../../shared/events/store.js';
import { capacityMeter, documentClient } from '../../shared/platform/clients.js';
import { config } from '../../shared/platform/config.js';
import { batchWriteAll } from '../../shared/platform/dynamo.js';
import { startTestService, type TestService } from '../support/service.js';

let service: TestService;

beforeAll(async () => {
  // Only the print-batches consumer: nothing else writes in the background, so capacity is this file's own.
  service = await startTestService({ consumers: ['print-batches'] });
});
afterAll(async () => {
  await service?.stop();
});

let seeded = 0;
/** A file as a rendered deliverable stores it (seeded directly: rendering thousands of PDFs is not what is tested). */
function file(printDate: string, overrides: Partial<AttachmentRecord> = {}): AttachmentRecord {
  const index = (seeded += 1);
  const fileId = crypto.randomUUID();
  const policyNumber = `RUN-2034-${index}`;
  return {
    fileId, policyId: crypto.randomUUID(), policyNumber, revisionId: crypto.randomUUID(), agencyId: null, contactIds: [], referenceType: 'policies',
    deliverableType: 'Declaration', label: 'Declaration', title: `Declaration - ${policyNumber}`, objectKey: `policies/seed/files/${fileId}/Declaration.pdf`,
    contentType: 'application/pdf', sizeBytes: 5000, printState: 'tbd', printDate, recipientContactId: crypto.randomUUID(),
    recipient: { name: `Insured ${index}`, address: { line1: `${index} Print Run Road`, city: 'Albany', state: 'NY', zip: '12207' } },
    parentId: null, childrenIds: [], esigned: false, goDate: printDate, procDate: printDate, createdAt: `${printDate}T10:00:00.000Z`,
    ...overrides,
  };
}

const seed = (records: readonly AttachmentRecord[]) => batchWriteAll(records.flatMap((record) => attachmentItems(record).map((Item) => ({ PutRequest: { Item } }))), { concurrency: 8 });

/** The ids of a window's files to print, all pages, as a client reads them (continue_after, nothing marked). */
async function waitingIn(from: string, to: string, options: Record<string, unknown> = {}): Promise<Array<{ file_id: string; print_state: string; batch: string | null }>> {
  const files: Array<{ file_id: string; print_state: string; batch: string | null }> = [];
  let after: string | undefined;
  do {
    const answer = await service.call('/api/v1/printing/getToBePrinted', { from_date: from, to_date: to, ...options, ...(after ? { continue_after: after } : {}) });
    expect(answer.body.success, JSON.stringify(answer.body.message)).toBe(true);
    files.push(...answer.body.files);
    after = answer.body.continue_after;
  } while (after);
  return files;
}

/** deliverable.printed events of the given files, from the pull stream's store. */
async function printedEvents(fileIds: ReadonlySet<string>): Promise<string[]> {
  const found: string[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await eventsAfter({ agencyIds: 'all' }, after, () => true, 1000);
    if (page.length === 0) return found;
    for (const event of page) if (event.type === 'deliverable.printed' && fileIds.has(String(event.data.file_id))) found.push(String(event.data.file_id));
    after = page[page.length - 1].eventId;
  }
}

describe('markAsPrinted at print-run size', () => {
  it('takes as many ids in one call as its ceiling allows and marks exactly the files waiting, each once, with one deliverable.printed event each, however two calls overlap', async () => {
    const printDate = '2034-02-06';
    expect(MARK_AS_PRINTED_MAX_FILES).toBe(2000);
    // A tenth of a night's 3,000 waiting files (the bench marks 20,000 waiting in one call); the call carries the ceiling's ids.
    const waiting = Array.from({ length: 300 }, () => file(printDate));
    const printedBefore = Array.from({ length: 20 }, () => file(printDate, { printState: 'printed' }));
    const custom = Array.from({ length: 5 }, () => file(printDate, { printState: 'none', printDate: null }));
    await seed([...waiting, ...printedBefore, ...custom]);
    const unknown = Array.from({ length: MARK_AS_PRINTED_MAX_FILES - 325 }, () => crypto.randomUUID());

    // The vendor's whole night in one body (at 20,000 ids about 800 KB), with an overlapping call marking a quarter of it meanwhile.
    const ids = [...waiting, ...printedBefore, ...custom].map((record) => record.fileId).concat(unknown);
    expect(ids).toHaveLength(MARK_AS_PRINTED_MAX_FILES);
    const [whole, overlap] = await Promise.all([
      service.call('/api/v1/printing/markAsPrinted', { file_ids: ids }),
      service.call('/api/v1/printing/markAsPrinted', { json_dict: { file_ids: waiting.slice(0, 75).map((record) => record.fileId) } }),
    ]);
    expect(whole.body.success, JSON.stringify(whole.body.message)).toBe(true);
    expect(whole.body).toEqual({ success: true, message: [], num_marked: whole.body.num_marked, data: { num_marked: whole.body.num_marked } });
    expect(whole.body.num_marked + overlap.body.num_marked).toBe(300);

    // Nothing of the date is left to print; every file of it shows printed.
    expect(await waitingIn(printDate, printDate)).toEqual([]);
    const everything = await waitingIn(printDate, printDate, { ignore_state: true });
    expect(everything).toHaveLength(320);
    expect(new Set(everything.map((listed) => listed.print_state))).toEqual(new Set(['printed']));

    const events = await printedEvents(new Set(ids));
    expect(events).toHaveLength(300);
    expect(new Set(events)).toEqual(new Set(waiting.map((record) => record.fileId)));

    const again = await service.call('/api/v1/printing/markAsPrinted', { file_ids: ids.slice(0, MARK_AS_PRINTED_MAX_FILES / 4) });
    expect(again.body.num_marked).toBe(0);
  }, 240_000);

  it('says how far it got when the call runs short of time, and the same call again marks the rest', async () => {
    const printDate = '2034-02-08';
    const waiting = Array.from({ length: 60 }, () => file(printDate));
    await seed(waiting);
    const ids = waiting.map((record) => record.fileId);
    // A deadline already inside the margin: the call reads the files but starts no mark.
    const cutShort = await markAsPrinted(ids, new Date(), { deadline: Date.now() + 1000 }).catch((error: unknown) => error);
    expect(cutShort).toBeInstanceOf(MarkingCutShortError);
    expect(cutShort).toMatchObject({ marked: 0, notTried: 60, message: expect.stringContaining('send the same file_ids again') });
    expect(await waitingIn(printDate, printDate)).toHaveLength(60);
    const again = await service.call('/api/v1/printing/markAsPrinted', { file_ids: ids });
    expect(again.body).toMatchObject({ success: true, num_marked: 60 });
  });

  it('refuses more ids than its ceiling by name, storing nothing', async () => {
    const answer = await service.call('/api/v1/printing/markAsPrinted', { file_ids: Array.from({ length: MARK_AS_PRINTED_MAX_FILES + 1 }, () => crypto.randomUUID()) });
    expect(answer.body).toMatchObject({ success: false, message: [expect.stringContaining('file_ids')] });
  });

  it('writes, per file marked, the delete of its small waiting entry and its event: 10 write units with an agency, 8 without, as DynamoDB reports them', async () => {
    const printDate = '2034-02-07';
    const withAgency = Array.from({ length: 20 }, () => file(printDate, { agencyId: crypto.randomUUID() }));
    const withoutAgency = Array.from({ length: 20 }, () => file(printDate));
    await seed([...withAgency, ...withoutAgency]);

    // One file per transaction: DynamoDB Local reports a transaction of several writes of one kind as if it were one
    // write (AWS bills every write), so only a one-file transaction shows the true figure.
    const measured = async (records: AttachmentRecord[], mark: (ids: string[]) => Promise<number>) => {
      capacityMeter.reset();
      expect(await mark(records.map((record) => record.fileId))).toBe(records.length);
      return { write: capacityMeter.writeUnits / records.length, read: capacityMeter.readUnits / records.length };
    };
    // The waiting entry's delete, transactional (2 units) + the event's put, transactional (2) + its three index entries (all events, pending, the agency's; 2 each).
    expect(await measured(withAgency, (ids) => markAsPrinted(ids, new Date(), { filesPerTransaction: 1 }))).toEqual({ write: 10, read: 1 });
    expect(await measured(withoutAgency, (ids) => markAsPrinted(ids, new Date(), { filesPerTransaction: 1 }))).toEqual({ write: 8, read: 1 });

    // The print queue's own part: the entry is one write unit, and no index copies it (2: transactional).
    const queueOnly = Array.from({ length: 20 }, () => file(printDate));
    await seed(queueOnly);
    expect(await measured(queueOnly, async (ids) => (await markFilesPrinted(ids, () => [], { filesPerTransaction: 1 })).marked)).toEqual({ write: 2, read: 1 });
  });
});

describe('the nightly print run fanned out by shard', () => {
  const printDate = '2034-03-08';
  const policies = 1000;
  let files: AttachmentRecord[];

  beforeAll(async () => {
    // Two files per policy and recipient (a Declaration and its bill: one envelope), a tenth of them printed already.
    files = Array.from({ length: policies }, () => file(printDate)).flatMap((declaration, index) => [
      declaration,
      { ...declaration, fileId: crypto.randomUUID(), label: 'Installment Billing Statement', title: `Bill - ${declaration.policyNumber}`, printState: index % 10 === 0 ? 'printed' : 'tbd' },
    ] satisfies AttachmentRecord[]);
    await seed(files);
  }, 120_000);

  async function runUntilDone(runs: number) {
    const started = await service.call('/local/schedules/nightly_print', { printDate }, { headers: { authorization: service.administratorApiKey } });
    expect(started.body.data).toEqual({ printDate });
    const deadline = Date.now() + 60_000;
    for (;;) {
      const run = await getPrintRun(printDate);
      if (run?.runs === runs && run.finishedRun === runs) return run;
      if (Date.now() > deadline) throw new Error(`run ${runs} of ${printDate} did not finish: ${JSON.stringify(run)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  it('puts every file of the date in exactly one envelope, one per policy, across the shards; a second run and a redelivered shard change nothing', async () => {
    const before = await service.call('/api/v1/printing/getToBePrinted', { json_dict: { from_date: printDate, to_date: printDate } });
    expect(before.body.processing).toBe('not started');

    const first = await runUntilDone(1);
    expect(first).toMatchObject({ state: 'done', files: 2 * policies, batches: policies, shards: PRINT_SHARDS });
    const batches = await mailingBatchesOf(printDate);
    expect(batches).toHaveLength(policies);
    const enveloped = batches.flatMap((batch) => batch.fileIds);
    expect(enveloped).toHaveLength(2 * policies);
    expect(new Set(enveloped)).toEqual(new Set(files.map((record) => record.fileId)));
    for (const batch of batches) expect(batch.fileIds).toHaveLength(2);

    // getToBePrinted names each waiting file's envelope.
    const listed = await waitingIn(printDate, printDate);
    expect(listed).toHaveLength(files.filter((record) => record.printState === 'tbd').length);
    const labelOf = new Map(batches.flatMap((batch) => batch.fileIds.map((fileId) => [fileId, batch.label])));
    for (const entry of listed) expect(entry.batch).toBe(labelOf.get(entry.file_id));

    // A shard's message delivered again once the run is done: counted once, the date stays done.
    const redelivery: SQSEvent = { Records: [{ messageId: 'again', body: JSON.stringify({ printDate, run: 1, shard: 3 }), attributes: {}, messageAttributes: {}, eventSource: 'aws:sqs' } as never] };
    expect(await assignMailingBatches(redelivery, { getRemainingTimeInMillis: () => 60_000 } as Context)).toEqual({ batchItemFailures: [] });
    expect(await getPrintRun(printDate)).toMatchObject({ state: 'done', files: 2 * policies, batches: policies, runs: 1 });

    const second = await runUntilDone(2);
    expect(second).toMatchObject({ state: 'done', files: 2 * policies, batches: policies });
    expect(await mailingBatchesOf(printDate)).toEqual(batches);
  }, 180_000);
});

describe('files of the layout before print entries', () => {
  it('are moved once to print entries: still waiting ones listed and markable, printed ones listed printed with their old envelope', async () => {
    const printDate = '2034-04-11';
    const waiting = Array.from({ length: 30 }, () => file(printDate));
    const printed = Array.from({ length: 10 }, () => file(printDate, { printState: 'printed' }));
    // As the old layout stored them: the record indexed whole on gsi3, and on gsi2 while waiting.
    const oldItem = (record: AttachmentRecord) => ({
      ...attachmentItem(record),
      gsi3pk: 'PRINTABLE', gsi3sk: `${printDate}#${record.fileId}`,
      ...(record.printState === 'tbd' ? { gsi2pk: 'PRINTQUEUE#tbd', gsi2sk: `${printDate}#${record.fileId}` } : {}),
    });
    await batchWriteAll([...waiting, ...printed].map((record) => ({ PutRequest: { Item: oldItem(record) } })));
    // An envelope of a run made before the fan-out: beside its run, with no shards recorded.
    await batchWriteAll([
      { PutRequest: { Item: { pk: `PRINTRUN#${printDate}`, sk: 'RUN', printDate, state: 'done', runs: 1, startedAt: `${printDate}T06:00:00.000Z` } } },
      { PutRequest: { Item: { pk: `PRINTRUN#${printDate}`, sk: 'BATCH#MB-old', label: 'MB-old', printDate, policyNumber: printed[0].policyNumber, fileIds: [printed[0].fileId] } } },
    ]);
    expect(await waitingIn(printDate, printDate)).toEqual([]);

    expect(await movePrintQueueToEntries({ evenIfDone: true, stopAt: Date.now() })).toEqual({ moved: 0, done: false });
    expect(await movePrintQueueToEntries({ evenIfDone: true })).toEqual({ moved: 40, done: true });
    expect(await movePrintQueueToEntries({ evenIfDone: true })).toEqual({ moved: 0, done: true });

    expect(new Set((await waitingIn(printDate, printDate)).map((listed) => listed.file_id))).toEqual(new Set(waiting.map((record) => record.fileId)));
    const everything = await waitingIn(printDate, printDate, { ignore_state: true });
    expect(everything).toHaveLength(40);
    expect(everything.filter((listed) => listed.print_state === 'printed').map((listed) => listed.file_id).sort()).toEqual(printed.map((record) => record.fileId).sort());
    expect(everything.find((listed) => listed.file_id === printed[0].fileId)?.batch).toBe('MB-old');

    const marked = await service.call('/api/v1/printing/markAsPrinted', { file_ids: [...waiting, ...printed].map((record) => record.fileId) });
    expect(marked.body.num_marked).toBe(30);
    expect(await waitingIn(printDate, printDate)).toEqual([]);
  });

  it('moves a file the code before the change marked printed as printed, out of the queue', async () => {
    const printDate = '2034-04-12';
    const record = file(printDate);
    await batchWriteAll([{ PutRequest: { Item: { ...attachmentItem(record), gsi3pk: 'PRINTABLE', gsi3sk: `${printDate}#${record.fileId}`, gsi2pk: 'PRINTQUEUE#tbd', gsi2sk: `${printDate}#${record.fileId}` } } }]);
    // Marked printed by the code before the change, as that code did it.
    await documentClient().send(new UpdateCommand({ TableName: config.tableName(), Key: { pk: `FILE#${record.fileId}`, sk: 'FILE' }, UpdateExpression: 'SET printState = :printed REMOVE gsi2pk, gsi2sk', ExpressionAttributeValues: { ':printed': 'printed' } }));
    expect(await movePrintQueueToEntries({ evenIfDone: true })).toEqual({ moved: 1, done: true });
    expect(await waitingIn(printDate, printDate)).toEqual([]);
    expect(await waitingIn(printDate, printDate, { ignore_state: true })).toMatchObject([{ file_id: record.fileId, print_state: 'printed' }]);
  });
});
