/**
 * A print vendor live since 2012 with 10,000 files waiting over 14 years (issue 17, item 2), at
 * the full answer size: getToBePrinted answers as many as fit one Lambda answer (files cut at
 * MAX_ANSWER_FILE_BYTES), the vendor marks them printed and asks again until nothing is left;
 * then the same window with ignore_state, read on by continue_after. The integration test
 * (test/integration/printing.test.ts) pages a fiftieth of the files through answers a fiftieth
 * the size; this is the size it stands for: rounds, the largest answer against Lambda's 6 MB,
 * and the time a round takes. Files are seeded as a rendered deliverable stores them (not measured).
 *
 * `BENCH_PRINT_SCALE=0.1` runs a tenth of the files (a loaded machine), at the full answer size.
 */
import { randomUUID } from 'node:crypto';
import type { AttachmentRecord } from '../../../shared/documents/model.js';
import { MAX_ANSWER_FILE_BYTES, printAnswerLimits } from '../../../shared/documents/print-service.js';
import { attachmentItems } from '../../../shared/documents/store.js';
import { batchWriteAll } from '../../../shared/platform/dynamo.js';
import type { BenchRow, BenchScenario } from '../types.js';

const SCALE = Number(process.env.BENCH_PRINT_SCALE ?? 1);
const FILES = Math.round(10_000 * SCALE);
const LAMBDA_ANSWER_LIMIT = 6 * 1024 * 1024;
const WINDOW = { from_date: '2012-01-02', to_date: '2025-12-31' };

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
/** What a Lambda proxy answer of this body weighs: the body JSON, escaped again as the answer's `body` string. */
const lambdaAnswerBytes = (body: unknown) => Buffer.byteLength(JSON.stringify({ statusCode: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));

function waitingFile(index: number): AttachmentRecord {
  const fileId = randomUUID();
  const printDate = new Date(Date.UTC(2013, 0, 2) + Math.floor((index * 4700) / FILES) * 86_400_000).toISOString().slice(0, 10);
  const policyNumber = `PQ-2013-${index}`;
  return {
    fileId, policyId: randomUUID(), policyNumber, revisionId: randomUUID(), agencyId: null, contactIds: [], referenceType: 'policies',
    deliverableType: 'Declaration', label: 'Declaration', title: `Declaration - ${policyNumber}`, objectKey: `policies/bench/files/${fileId}/Declaration.pdf`,
    contentType: 'application/pdf', sizeBytes: 5000, printState: 'tbd', printDate, recipientContactId: randomUUID(),
    recipient: { name: `Seeded Insured ${index}`, address: { line1: `${index} Long History Road`, city: 'New York', state: 'NY', zip: '10001' } },
    parentId: null, childrenIds: [], esigned: false, goDate: printDate, procDate: printDate, createdAt: `${printDate}T10:00:00.000Z`,
  };
}

export const scenario: BenchScenario = {
  name: 'print-queue',
  async run(context) {
    const rows: BenchRow[] = [];
    // Whatever a test set before, the bench measures the answer size AWS serves.
    printAnswerLimits.fileBytes = MAX_ANSWER_FILE_BYTES;
    const files = Array.from({ length: FILES }, (_, index) => waitingFile(index));
    const ours = new Set(files.map((file) => file.fileId));
    await batchWriteAll(files.flatMap((file) => attachmentItems(file).map((Item) => ({ PutRequest: { Item } }))), { concurrency: 8 });

    // As the vendor reads it: an answer, its files marked printed (1,000 a call), the same call again.
    const answerMs: number[] = [];
    let largest = 0;
    let answered = 0;
    let rounds = 0;
    const started = performance.now();
    for (;;) {
      const answer = await context.call('/api/v1/printing/getToBePrinted', { json_dict: { ...WINDOW, include_address_fields: true } });
      if (answer.body?.success !== true) throw new Error(`getToBePrinted failed: ${JSON.stringify(answer.body?.message)}`);
      rounds += 1;
      answerMs.push(answer.ms);
      largest = Math.max(largest, lambdaAnswerBytes(answer.body));
      const ids = (answer.body.files as Array<{ file_id: string }>).map((file) => file.file_id).filter((id) => ours.has(id));
      answered += ids.length;
      for (let start = 0; start < ids.length; start += 1000) await context.call('/api/v1/printing/markAsPrinted', { file_ids: ids.slice(start, start + 1000) });
      if (!answer.body.continue_after) break;
      if (rounds > 20) throw new Error('getToBePrinted did not finish in 20 rounds');
    }
    if (answered !== FILES) throw new Error(`getToBePrinted answered ${answered} of ${FILES} files`);
    rows.push({
      name: `getToBePrinted, ${FILES} files waiting over 14 years, answered and marked printed round by round`,
      rounds,
      seconds: round((performance.now() - started) / 1000, 1),
      answerMsLargest: round(Math.max(...answerMs)),
      largestAnswerMB: round(largest / 1024 / 1024),
      ofLambdaLimit: round(largest / LAMBDA_ANSWER_LIMIT),
    });

    // ignore_state: the same window, printed or not, read on by continue_after.
    let after: string | undefined;
    let seen = 0;
    let pages = 0;
    const readStarted = performance.now();
    do {
      const answer = await context.call('/api/v1/printing/getToBePrinted', { ...WINDOW, ignore_state: true, ...(after ? { continue_after: after } : {}) });
      if (answer.body?.success !== true) throw new Error(`getToBePrinted failed: ${JSON.stringify(answer.body?.message)}`);
      largest = Math.max(largest, lambdaAnswerBytes(answer.body));
      seen += (answer.body.files as Array<{ file_id: string }>).filter((file) => ours.has(file.file_id)).length;
      after = answer.body.continue_after;
      pages += 1;
    } while (after && pages <= 20);
    if (seen !== FILES) throw new Error(`ignore_state read ${seen} of ${FILES} files`);
    rows.push({
      name: `getToBePrinted with ignore_state, the same ${FILES} files by continue_after`,
      pages,
      seconds: round((performance.now() - readStarted) / 1000, 1),
      largestAnswerMB: round(largest / 1024 / 1024),
      ofLambdaLimit: round(largest / LAMBDA_ANSWER_LIMIT),
    });
    return rows;
  },
};
