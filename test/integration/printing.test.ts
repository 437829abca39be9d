/**
 * The print queue as the print vendor's existing clients drive it: getToBePrinted (wrapped
 * in json_dict), markAsPrinted flat and wrapped, then nothing left tbd; and the nightly print
 * run (schedule → print-batches queue → consumer) putting a date's files into mailing
 * batches, run twice with the same outcome.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { handler as assignMailingBatches } from '../../events/queues/print-batches/assign_mailing_batches.js';
import { MAX_ANSWER_FILE_BYTES, printAnswerLimits } from '../../shared/documents/print-service.js';
import { attachmentItems, getPrintRun, mailingBatchesOf } from '../../shared/documents/store.js';
import type { AttachmentRecord } from '../../shared/documents/model.js';
import { batchWriteAll } from '../../shared/platform/dynamo.js';
import { agentOf, workedExampleQuote } from '../support/documents.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';

let service: TestService;

beforeAll(async () => {
  service = await startTestService({ consumers: true });
});
afterAll(async () => {
  await service?.stop();
});

async function deliverable(revisionId: string, type: string, goDate: string, extra: Record<string, unknown> = {}): Promise<string> {
  return ok(await service.call('/api/v1/deliverables/create_deliverable', { revision_id: revisionId, deliverable_type: type, go_date: goDate, ...extra })).file_id;
}

async function until<T>(read: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('gave up waiting');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('getToBePrinted and markAsPrinted, as existing clients call them', () => {
  it('lists the files to print with every field, at the top level and in data; marked files (flat, then wrapped) are no longer tbd', async () => {
    const quote = await workedExampleQuote(service);
    // 2031-07-03 is a Thursday; Friday the 4th is Independence Day, so a file going on the 4th prints on Monday the 7th.
    const declaration = await deliverable(quote.revisionId, 'Declaration', '2031-07-03');
    const statement = await deliverable(quote.revisionId, 'Installment Billing Statement', '2031-07-04');
    const delayed = await deliverable(quote.revisionId, 'Quote Summary', '2031-07-03', { delay_print_days: 2 });

    const listed = await service.call('/api/v1/printing/getToBePrinted', { json_dict: { from_date: '2031-07-01', to_date: '2031-07-31', include_address_fields: 'true' } });
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ success: true, processing: 'not started' });
    expect(listed.body.data).toEqual({ processing: listed.body.processing, files: listed.body.files });
    const byId = new Map(listed.body.files.map((file: { file_id: string }) => [file.file_id, file]));
    expect(byId.get(declaration)).toEqual({
      policy_number: quote.policyNumber,
      file_id: declaration,
      contact_id: quote.policy.active_revision.named_insureds?.[0]?.id ?? expect.any(String),
      print_date: '2031-07-03',
      print_state: 'tbd',
      label: 'Declaration',
      title: `Declaration - ${quote.policyNumber}`,
      batch: null,
      parent: null,
      children: [],
      revision_id: quote.revisionId,
      recipient_name: 'Jordan Avery',
      address_line1: '42 Maple Avenue',
      address_line2: '',
      address_city: 'New York',
      address_state: 'NY',
      address_zip: '10001',
    });
    // Independence Day (Friday 2031-07-04) is no print day; nor is the weekend after it.
    expect(byId.get(statement)).toMatchObject({ print_date: '2031-07-07' });
    expect(byId.get(delayed)).toMatchObject({ print_date: '2031-07-07' });

    // getAttachment takes a listed file by the name the list gives its id, file_id, as by id (issue 44).
    const attachment = async (fields: Record<string, unknown>) => {
      const response = await fetch(`${service.url}/api/v1/printing/getAttachment`, { method: 'POST', body: JSON.stringify({ api_key: service.administratorApiKey, json_dict: fields }) });
      return { status: response.status, contentType: response.headers.get('content-type'), bytes: Buffer.from(await response.arrayBuffer()) };
    };
    const byFileId = await attachment({ file_id: declaration });
    expect(byFileId).toMatchObject({ status: 200, contentType: 'application/pdf' });
    expect(byFileId.bytes.equals((await attachment({ id: declaration })).bytes)).toBe(true);
    expect((await service.call('/api/v1/printing/getAttachment', { json_dict: { delete_on_view: 'false' } })).body).toMatchObject({ success: false, message: ['id: give id or file_id'] });

    const flat = await service.call('/api/v1/printing/markAsPrinted', { file_ids: [declaration] });
    expect(flat.body).toEqual({ success: true, message: [], num_marked: 1, data: { num_marked: 1 } });
    const wrapped = await service.call('/api/v1/printing/markAsPrinted', { json_dict: { file_ids: [declaration, statement, delayed] } });
    expect(wrapped.body).toMatchObject({ num_marked: 2, data: { num_marked: 2 } });

    const after = await service.call('/api/v1/printing/getToBePrinted', { json_dict: { from_date: '2031-07-01', to_date: '2031-07-31' } });
    const ours = [declaration, statement, delayed];
    expect(after.body.files.filter((file: { file_id: string }) => ours.includes(file.file_id))).toEqual([]);
    const everything = await service.call('/api/v1/printing/getToBePrinted', { from_date: '2031-07-01', to_date: '2031-07-31', ignore_state: true });
    const states = everything.body.files.filter((file: { file_id: string }) => ours.includes(file.file_id)).map((file: { print_state: string }) => file.print_state);
    expect(states).toEqual(['printed', 'printed', 'printed']);
  });

  it('refuses a reversed window and malformed ids by name; an agent may not read the print queue', async () => {
    const reversed = await service.call('/api/v1/printing/getToBePrinted', { json_dict: { from_date: '2031-08-01', to_date: '2031-07-01' } });
    expect(reversed.body).toMatchObject({ success: false, message: ['from_date 2031-08-01 is after to_date 2031-07-01'] });
    const malformed = await service.call('/api/v1/printing/markAsPrinted', { file_ids: ['not-a-file'] });
    expect(malformed.body).toMatchObject({ success: false, message: [expect.stringContaining('file_ids.0')] });
    const stranger = await agentOf([crypto.randomUUID()]);
    expect((await service.call('/api/v1/printing/getToBePrinted', {}, { apiKey: stranger.apiKey })).status).toBe(403);
    expect((await service.call('/api/v1/printing/markAsPrinted', { file_ids: [] }, { apiKey: stranger.apiKey })).status).toBe(403);
  });
});

/**
 * A vendor live since 2012 has 10,000 files waiting, paged through answers of 5.2 MB of files
 * (the bench's print-queue scenario runs that size); here the same history at a fiftieth of
 * the size, paged through answers cut at a fiftieth of the bytes: the same rounds.
 */
const SCALE = 1 / 50;
const SEEDED_FILES = 10_000 * SCALE;

/** A file record as a deliverable writes it, for seeding the queue without rendering thousands of PDFs. */
function seededFile(index: number, overrides: Partial<AttachmentRecord> = {}): AttachmentRecord {
  const fileId = crypto.randomUUID();
  // Print dates spread over 2013-2025, a print vendor's history since its live date.
  const printDate = new Date(Date.UTC(2013, 0, 2) + Math.floor((index * 4700) / SEEDED_FILES) * 86_400_000).toISOString().slice(0, 10);
  return {
    fileId, policyId: crypto.randomUUID(), policyNumber: `SEED-2013-${index}`, revisionId: crypto.randomUUID(), agencyId: null, contactIds: [], referenceType: 'policies',
    deliverableType: 'Declaration', label: 'Declaration', title: `Declaration - SEED-2013-${index}`, objectKey: `policies/seed/files/${fileId}/Declaration.pdf`,
    contentType: 'application/pdf', sizeBytes: 5000, printState: 'tbd', printDate, recipientContactId: crypto.randomUUID(),
    recipient: { name: `Seeded Insured ${index}`, address: { line1: `${index} Long History Road`, city: 'New York', state: 'NY', zip: '10001' } },
    parentId: null, childrenIds: [], esigned: false, goDate: printDate, procDate: printDate, createdAt: `${printDate}T10:00:00.000Z`,
    ...overrides,
  };
}

/** What a Lambda proxy answer of this body weighs: the body JSON, escaped again as the answer's `body` string. */
const lambdaAnswerBytes = (body: unknown) => Buffer.byteLength(JSON.stringify({ statusCode: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));
const LAMBDA_ANSWER_LIMIT = 6 * 1024 * 1024 * SCALE;

describe('a print vendor live since 2012 (issue 17, item 2)', () => {
  const seeded = new Set<string>();
  const window = { from_date: '2012-01-02', to_date: '2025-12-31' };
  const ours = (files: Array<{ file_id: string }>) => files.map((file) => file.file_id).filter((id) => seeded.has(id));

  beforeAll(async () => {
    printAnswerLimits.fileBytes = MAX_ANSWER_FILE_BYTES * SCALE;
    const records = Array.from({ length: SEEDED_FILES }, (_, index) => seededFile(index));
    for (const record of records) seeded.add(record.fileId);
    await batchWriteAll(records.flatMap((record) => attachmentItems(record).map((Item) => ({ PutRequest: { Item } }))), { concurrency: 4 });
  }, 240_000);
  afterAll(() => {
    printAnswerLimits.fileBytes = MAX_ANSWER_FILE_BYTES;
  });

  it('serves a 14-year window with 10,000 files waiting (at a fiftieth of the size): as many as fit one Lambda answer, then the rest as answered files are marked printed', async () => {
    const answered: string[] = [];
    const rounds: number[] = [];
    for (;;) {
      const answer = await service.call('/api/v1/printing/getToBePrinted', { json_dict: { ...window, include_address_fields: true } });
      expect(answer.body.success, JSON.stringify(answer.body.message)).toBe(true);
      expect(lambdaAnswerBytes(answer.body)).toBeLessThan(LAMBDA_ANSWER_LIMIT);
      const ids = ours(answer.body.files);
      // In print order: the oldest waiting files first.
      const dates = answer.body.files.map((file: { print_date: string }) => file.print_date);
      expect(dates).toEqual([...dates].sort());
      answered.push(...ids);
      rounds.push(ids.length);
      if (!answer.body.continue_after) {
        expect(answer.body.processing).toBe('not started');
        break;
      }
      expect(answer.body.processing).toBe('incomplete');
      expect(ids.length).toBeGreaterThan(1000 * SCALE);
      expect(rounds.length).toBeLessThan(6);
      for (let start = 0; start < ids.length; start += 1000) {
        const marked = await service.call('/api/v1/printing/markAsPrinted', { file_ids: ids.slice(start, start + 1000) });
        expect(marked.body.num_marked).toBe(Math.min(1000, ids.length - start));
      }
    }
    expect(rounds.length).toBeGreaterThan(1);
    expect(answered).toHaveLength(SEEDED_FILES);
    expect(new Set(answered)).toEqual(seeded);
  }, 300_000);

  it('with ignore_state, serves the same window (printed or not) by continue_after, each file once', async () => {
    const seen: string[] = [];
    let continueAfter: string | undefined;
    let calls = 0;
    do {
      const answer = await service.call('/api/v1/printing/getToBePrinted', { ...window, ignore_state: true, ...(continueAfter ? { continue_after: continueAfter } : {}) });
      expect(answer.body.success, JSON.stringify(answer.body.message)).toBe(true);
      expect(lambdaAnswerBytes(answer.body)).toBeLessThan(LAMBDA_ANSWER_LIMIT);
      seen.push(...ours(answer.body.files));
      continueAfter = answer.body.continue_after;
      if (continueAfter) expect(answer.body.processing).toBe('incomplete');
      calls += 1;
    } while (continueAfter && calls < 10);
    expect(calls).toBeGreaterThan(1);
    expect(seen).toHaveLength(SEEDED_FILES);
    expect(new Set(seen)).toEqual(seeded);
  }, 240_000);
});

describe('the electronic delivery preference (issue 17, item 8)', () => {
  const NAMED_INSURED_ROLE = '8626b373-c54d-498a-82bf-fd2d2f32b746';
  const printDate = '2033-05-10';
  const listed = async (filters: Record<string, unknown>) =>
    (await service.call('/api/v1/printing/getToBePrinted', { json_dict: { from_date: printDate, to_date: printDate, ...filters } })).body.files.map((file: { file_id: string }) => file.file_id);

  it("files carry their recipient's notices.acceptNoticesByEmail as of their making; only_ and exclude_electronic_delivery filter on it", async () => {
    const emailed = await workedExampleQuote(service, { insured: 'Eliza Inbox' });
    const mailed = await workedExampleQuote(service, { insured: 'Paulo Papers' });
    const emailedInsured = emailed.policy.policy_contacts.named_insureds[0].id;
    const stored = await service.call('/api/v1/contacts/storeRoles', { contactId: emailedInsured, roleId: NAMED_INSURED_ROLE, notices: { acceptNoticesByEmail: true } });
    expect(stored.body.success, JSON.stringify(stored.body)).toBe(true);

    const electronic = await deliverable(emailed.revisionId, 'Declaration', printDate);
    const paper = await deliverable(mailed.revisionId, 'Declaration', printDate);

    expect(await listed({ only_electronic_delivery: true })).toEqual([electronic]);
    expect(await listed({ exclude_electronic_delivery: 'true' })).toEqual([paper]);
    expect(new Set(await listed({}))).toEqual(new Set([electronic, paper]));
    expect(new Set(await listed({ only_electronic_delivery: true, disable_edelivery_filtering: true }))).toEqual(new Set([electronic, paper]));

    // The preference changes: files already made keep the one they were made with.
    await service.call('/api/v1/contacts/storeRoles', { contactId: emailedInsured, roleId: NAMED_INSURED_ROLE, notices: { acceptNoticesByEmail: false } });
    const later = await deliverable(emailed.revisionId, 'Installment Billing Statement', printDate);
    expect(await listed({ only_electronic_delivery: true })).toEqual([electronic]);
    expect(new Set(await listed({ exclude_electronic_delivery: true }))).toEqual(new Set([paper, later]));
    expect(await listed({ only_electronic_delivery: true, ignore_state: true })).toEqual([electronic]);
  });
});

describe('the nightly print run', () => {
  it('puts the files of a date into one envelope per recipient and policy, moves processing to done, and a second run changes nothing', async () => {
    const printDate = '2032-03-10';
    const first = await workedExampleQuote(service, { insured: 'Avery Batch' });
    const second = await workedExampleQuote(service, { insured: 'Morgan Batch', addressLine1: '7 Elm Street' });
    const files = [
      await deliverable(first.revisionId, 'Declaration', printDate),
      await deliverable(first.revisionId, 'Installment Billing Statement', printDate),
      await deliverable(second.revisionId, 'Declaration', printDate),
    ];
    const before = await service.call('/api/v1/printing/getToBePrinted', { json_dict: { from_date: printDate, to_date: printDate } });
    expect(before.body.processing).toBe('not started');

    const runNow = async () => ok(await service.call('/local/schedules/nightly_print', { printDate }, { headers: { authorization: service.administratorApiKey } }));
    expect(await runNow()).toEqual({ printDate });
    const firstRun = await until(async () => {
      const run = await getPrintRun(printDate);
      return run?.state === 'done' ? run : undefined;
    });
    expect(firstRun).toMatchObject({ runs: 1, files: 3, batches: 2 });
    const answer = await service.call('/api/v1/printing/getToBePrinted', { json_dict: { from_date: printDate, to_date: printDate } });
    expect(answer.body.processing).toBe('done');
    const batchOf = new Map(answer.body.files.map((file: { file_id: string; batch: string }) => [file.file_id, file.batch]));
    expect(batchOf.get(files[0])).toMatch(/^MB-20320310-[0-9a-f]{10}$/);
    expect(batchOf.get(files[1])).toBe(batchOf.get(files[0]));
    expect(batchOf.get(files[2])).not.toBe(batchOf.get(files[0]));
    const batches = await mailingBatchesOf(printDate);

    await runNow();
    const secondRun = await until(async () => {
      const run = await getPrintRun(printDate);
      return run && run.runs === 2 && run.finishedAt !== firstRun.finishedAt ? run : undefined;
    });
    expect(secondRun).toMatchObject({ state: 'done', files: 3, batches: 2 });
    expect(await mailingBatchesOf(printDate)).toEqual(batches);
    const again = await service.call('/api/v1/printing/getToBePrinted', { json_dict: { from_date: printDate, to_date: printDate } });
    expect(again.body).toEqual(answer.body);
  });

  it('reports a malformed print-batches message alone as failed, so SQS retries it and then dead-letters it', async () => {
    const record = (messageId: string, body: string) => ({ messageId, body, attributes: {}, messageAttributes: {}, eventSource: 'aws:sqs', eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:print-batches' }) as unknown as SQSRecord;
    const event: SQSEvent = { Records: [record('good', JSON.stringify({ printDate: '2032-04-14' })), record('poison', 'not a print date')] };
    const answer = await assignMailingBatches(event, { getRemainingTimeInMillis: () => 60_000 } as Context);
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: 'poison' }] });
    expect(await getPrintRun('2032-04-14')).toMatchObject({ state: 'done', files: 0, batches: 0 });
  });

  it('starts runs only for an Administrator, and only for a real date', async () => {
    const stranger = await agentOf([crypto.randomUUID()]);
    const refused = await service.call('/local/schedules/nightly_print', {}, { apiKey: null, headers: { authorization: stranger.apiKey } });
    expect(refused.status).toBe(403);
    const malformed = await service.call('/local/schedules/nightly_print', { printDate: '2032-02-30' }, { headers: { authorization: service.administratorApiKey } });
    expect(malformed.status).toBe(500);
    expect(malformed.body.messages[0]).toMatch(/printDate/);
  });
});
