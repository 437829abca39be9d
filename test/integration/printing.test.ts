/**
 * The print queue as the print vendor's existing clients drive it: getToBePrinted (wrapped
 * in json_dict), markAsPrinted flat and wrapped, then nothing left tbd; and the nightly print
 * run (schedule → print-batches queue → consumer) putting a date's files into mailing
 * batches, run twice with the same outcome.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { handler as assignMailingBatches } from '../../events/queues/print-batches/assign_mailing_batches.js';
import { getPrintRun, mailingBatchesOf } from '../../shared/documents/store.js';
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
