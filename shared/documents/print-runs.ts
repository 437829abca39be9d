/**
 * The nightly print run that puts the files of a print date into mailing batches, fanned out
 * by shard of the print lists (the schedule plans, the print-batches consumers work).
 */
import { parseDate, todayIso } from '../platform/dates.js';
import { sendInBatches } from '../platform/queue-sends.js';
import { PRINT_SHARDS } from './print-shards.js';
import { assignMailingBatches } from './mailing-batches.js';
import type { PrintEntry, PrintFile, PrintProcessing } from './model.js';
import { movePrintQueueToEntries } from './print-entries-migration.js';
import { InvalidPrintRunRequestError, type PrintShardRequest } from './print-queue.js';
import { finishPrintRun, printableFilesOfShard, putMailingBatches, recordPrintShardDone, startPrintRun } from './store.js';
import { clock } from '../platform/clock.js';

/** Of the planner's fifteen minutes, what the move of files of the layout before print entries may take. */
const MIGRATION_MINUTES = 10;

/** A file as the envelopes see it. */
export function printFileOf(record: PrintEntry): PrintFile {
  return {
    fileId: record.fileId,
    policyNumber: record.policyNumber,
    printDate: record.printDate,
    label: record.label,
    title: record.title,
    // A file without a recipient goes in the policy's own envelope.
    recipient: record.recipient ?? { name: '', address: { line1: '', city: '', state: '', zip: '' } },
    ...(record.parentId ? { parentId: record.parentId } : {}),
    ...(record.childrenIds?.length ? { childrenIds: record.childrenIds } : {}),
  };
}

export interface PrintRunSummary {
  printDate: string;
  files: number;
  batches: number;
  processing: PrintProcessing;
}

/**
 * The nightly print run of one print date, fanned out: the run is recorded and one message per
 * shard goes to the print-batches queue; each shard's consumer puts its files into envelopes
 * (runPrintShard) and the last shard done marks the date `done`. Answers the run's number.
 */
export async function planPrintRun(printDate: string, now = clock.now()): Promise<{ printDate: string; run: number; shards: number }> {
  if (parseDate(printDate) !== printDate) throw new InvalidPrintRunRequestError();
  // Files of the layout before print entries are found only once moved (one read once done); a
  // history too large for one go is moved on by the next run, today's run planned all the same.
  // A time budget, measured on the real clock (the migration checks it against Date.now()).
  await movePrintQueueToEntries({ stopAt: Date.now() + MIGRATION_MINUTES * 60_000 });
  const run = await startPrintRun(printDate, now.toISOString());
  const messages = Array.from({ length: PRINT_SHARDS }, (_, shard) => ({ id: String(shard), body: { printDate, run, shard } satisfies PrintShardRequest }));
  await sendInBatches('print-batches', messages, `the print run of ${printDate}`);
  return { printDate, run, shards: PRINT_SHARDS };
}

/**
 * One shard of a print run: every file of the shard still to print on that date, or printed
 * already, goes in the envelope of its recipient and policy (all of an envelope's files share a
 * shard). Labels are derived from the envelope alone, so a second run (a retried message, a
 * rerun by hand) writes the very same batches again and leaves the date `done`.
 */
export async function runPrintShard(printDate: string, run: number, shard: number, now = clock.now()): Promise<PrintRunSummary> {
  const files = await printableFilesOfShard(printDate, printDate, shard);
  const batches = assignMailingBatches(printDate, files.map(printFileOf));
  await putMailingBatches(batches.map((batch) => ({ label: batch.label, printDate, policyNumber: batch.policyNumber, fileIds: batch.fileIds })));
  const after = await recordPrintShardDone(printDate, run, shard, { files: files.length, batches: batches.length });
  const done = after?.shardsDone ? [...after.shardsDone].length : 0;
  if (after && done >= (after.shards ?? PRINT_SHARDS)) {
    await finishPrintRun(printDate, run, { batches: after.shardBatches ?? 0, files: after.shardFiles ?? 0, finishedAt: now.toISOString() });
    return { printDate, files: after.shardFiles ?? 0, batches: after.shardBatches ?? 0, processing: 'done' };
  }
  return { printDate, files: files.length, batches: batches.length, processing: 'incomplete' };
}

/** A whole print date in one invocation, shard after shard (a message naming only its date: a run by hand, or one sent before the fan-out). */
export async function runPrintJob(printDate: string, now = clock.now()): Promise<PrintRunSummary> {
  const run = await startPrintRun(printDate, now.toISOString());
  let summary: PrintRunSummary = { printDate, files: 0, batches: 0, processing: 'incomplete' };
  for (let shard = 0; shard < PRINT_SHARDS; shard += 1) summary = await runPrintShard(printDate, run, shard, clock.now());
  return summary;
}

/** The print date a nightly run started at `now` prepares: today's (UTC). */
export function nightlyPrintDate(now = clock.now()): string {
  return todayIso(now);
}
