/**
 * Print runs of any size (issue 22, item 2): markAsPrinted of 20,000 files in one call against
 * 1,000 in the same run (time per file, read and write units per file), and the nightly print
 * run fanned out by shard over 50,000 deliverables against 5,000 (seconds per 10,000, with four
 * local consumers; Lambda would run eight, one per shard), and the same 50,000 in one invocation.
 * Files are seeded as a rendered deliverable stores them (not measured).
 *
 * DynamoDB Local reports a transaction of several writes of one kind as if it were one write,
 * where AWS bills each: markAsPrinted groups 25 files a transaction, so its row's write units
 * are DynamoDB Local's figure, and the row "as AWS bills it" marks files one per transaction,
 * which DynamoDB Local reports exactly.
 *
 * `BENCH_PRINT_SCALE=0.1` runs the same at a tenth of the sizes (a loaded machine).
 */
import { randomUUID } from 'node:crypto';
import { SQSClient } from '@aws-sdk/client-sqs';
import { startQueuePoller } from '../../../infra/local/queue-poller.js';
import { handler as assignMailingBatches } from '../../../events/queues/print-batches/assign_mailing_batches.js';
import { PRINT_SHARDS, printShardOf } from '../../../shared/documents/print-shards.js';
import type { AttachmentRecord } from '../../../shared/documents/model.js';
import { planPrintRun, runPrintJob } from '../../../shared/documents/print-runs.js';
import { markAsPrinted } from '../../../shared/documents/print-service.js';
import { attachmentItems, getPrintRun } from '../../../shared/documents/store.js';
import { billedMeter as capacityMeter } from '../billed-capacity.js';
import { config } from '../../../shared/platform/config.js';
import { batchWriteAll } from '../../../shared/platform/dynamo.js';
import type { BenchRow, BenchScenario } from '../types.js';

const SCALE = Number(process.env.BENCH_PRINT_SCALE ?? 1);
const MARK_BASELINE = Math.round(1000 * SCALE);
const MARK_LARGE = Math.round(20_000 * SCALE);
const RUN_BASELINE = Math.round(5000 * SCALE);
const RUN_LARGE = Math.round(50_000 * SCALE);
const WORKERS = 4;

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

let policies = 0;
/** `count` deliverables of one print date, two per policy (a Declaration and its bill: one envelope). */
function deliverables(printDate: string, count: number): AttachmentRecord[] {
  const files: AttachmentRecord[] = [];
  for (let index = 0; index < count; index += 1) {
    if (index % 2 === 0) policies += 1;
    const policyNumber = `PR-2035-${policies}`;
    const fileId = randomUUID();
    files.push({
      fileId, policyId: `bench-print-policy-${policies}`, policyNumber, revisionId: null, agencyId: policies % 3 === 0 ? null : `bench-agency-${policies % 40}`, contactIds: [], referenceType: 'policies',
      deliverableType: index % 2 === 0 ? 'Declaration' : 'Installment Billing Statement', label: index % 2 === 0 ? 'Declaration' : 'Installment Billing Statement',
      title: `${index % 2 === 0 ? 'Declaration' : 'Installment Billing Statement'} - ${policyNumber}`, objectKey: `policies/bench/files/${fileId}/file.pdf`,
      contentType: 'application/pdf', sizeBytes: 40_000, printState: 'tbd', printDate, recipientContactId: `bench-contact-${policies}`,
      recipient: { name: `Insured ${policies}`, address: { line1: `${policies} Main Street`, city: 'Springfield', state: 'IL', zip: '62701' } },
      parentId: null, childrenIds: [], esigned: false, goDate: printDate, procDate: printDate, createdAt: new Date().toISOString(),
    });
  }
  return files;
}

const seed = (files: readonly AttachmentRecord[]) => batchWriteAll(files.flatMap((file) => attachmentItems(file).map((Item) => ({ PutRequest: { Item } }))), { concurrency: 8 });

/** The nightly print run of a date through the queue with `WORKERS` local consumers: seconds until its last shard marks it done. */
async function timedPrintRun(printDate: string): Promise<{ seconds: number; files: number; batches: number }> {
  const client = new SQSClient({});
  const pollers = Array.from({ length: WORKERS }, () => startQueuePoller({ client, queueUrl: config.queueUrl('print-batches'), handler: assignMailingBatches, batchSize: 1, waitTimeSeconds: 1 }));
  const started = performance.now();
  try {
    const { run } = await planPrintRun(printDate);
    for (;;) {
      const progress = await getPrintRun(printDate);
      if (progress?.finishedRun === run) return { seconds: round((performance.now() - started) / 1000, 1), files: progress.files ?? 0, batches: progress.batches ?? 0 };
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    await Promise.all(pollers.map((poller) => poller.stop()));
    client.destroy();
  }
}

export const scenario: BenchScenario = {
  name: 'print-runs',
  async run(context) {
    const rows: BenchRow[] = [];

    // markAsPrinted: 1,000 files (the baseline), then 20,000 in one call.
    const marks: Record<string, { ms: number; perFileMs: number }> = {};
    for (const [label, count, printDate] of [['baseline', MARK_BASELINE, '2035-01-08'], ['large', MARK_LARGE, '2035-01-09']] as const) {
      const files = deliverables(printDate, count);
      await seed(files);
      const call = await context.call('/api/v1/printing/markAsPrinted', { file_ids: files.map((file) => file.fileId) });
      if (call.body?.num_marked !== count) throw new Error(`markAsPrinted marked ${call.body?.num_marked} of ${count}: ${JSON.stringify(call.body?.message)}`);
      marks[label] = { ms: call.ms, perFileMs: call.ms / count };
      rows.push({
        name: `markAsPrinted, ${count} files (one call, 25 files a transaction)`,
        ms: round(call.ms, 1),
        perFileMs: round(call.ms / count, 3),
        perFileVsBaseline: round(call.ms / count / marks.baseline.perFileMs),
        readUnitsPerFile: round(call.readUnits / count),
        writeUnitsPerFileAsReportedLocally: round(call.writeUnits / count),
      });
    }

    // What a file costs as AWS bills it: one file per transaction, which DynamoDB Local reports exactly.
    const measured = deliverables('2035-01-10', 200);
    await seed(measured);
    capacityMeter.reset();
    await markAsPrinted(measured.map((file) => file.fileId), new Date(), { filesPerTransaction: 1 });
    rows.push({
      name: 'markAsPrinted write units per file as AWS bills it (waiting entry 2 + its event 2 + the event\'s index entries 4-6; two in three files with an agency)',
      writeUnitsPerFile: round(capacityMeter.writeUnits / measured.length),
      readUnitsPerFile: round(capacityMeter.readUnits / measured.length),
    });
    capacityMeter.enabled = false;

    // The nightly print run: 5,000 deliverables (the baseline), then 50,000, fanned out by shard.
    const runs: Record<string, number> = {};
    for (const [label, count, printDate] of [['baseline', RUN_BASELINE, '2035-02-06'], ['large', RUN_LARGE, '2035-02-07']] as const) {
      const files = deliverables(printDate, count);
      await seed(files);
      const perShard = new Array(PRINT_SHARDS).fill(0);
      for (const file of files) perShard[printShardOf(file.policyNumber)] += 1;
      capacityMeter.reset();
      const run = await timedPrintRun(printDate);
      if (run.files !== count) throw new Error(`the print run of ${printDate} batched ${run.files} of ${count} files`);
      runs[label] = run.seconds / (count / 10_000);
      rows.push({
        name: `nightly print run, ${count} deliverables (${run.batches} envelopes, ${PRINT_SHARDS} shard messages, ${WORKERS} local consumers)`,
        seconds: run.seconds,
        secondsPer10000: round(runs[label], 1),
        per10000VsBaseline: round(runs[label] / runs.baseline),
        largestShardFiles: Math.max(...perShard),
        readUnits: round(capacityMeter.readUnits),
        writeUnits: round(capacityMeter.writeUnits),
      });
      capacityMeter.enabled = false;
      if (label === 'large') {
        // The same date again in ONE invocation, shard after shard (how a message naming only its date runs, and how every run went before the fan-out).
        const started = performance.now();
        await runPrintJob(printDate);
        const seconds = (performance.now() - started) / 1000;
        rows.push({ name: `the same ${count} deliverables in one invocation (no fan-out)`, seconds: round(seconds, 1), fannedOutVsOneInvocation: round(run.seconds / seconds) });
      }
    }
    return rows;
  },
};
