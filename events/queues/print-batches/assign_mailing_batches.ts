/**
 * Consumes print-batches: each message names one shard of a print date's run (the nightly
 * planner fans a date out by shard) or a whole print date, whose files go into mailing
 * batches (shared/documents/print-runs.ts). A run is idempotent by construction (batch
 * labels derive from the envelope, a shard is counted once per run), so a redelivered message
 * writes the same batches again.
 */
import { defineConsumer } from '../../../shared/platform/consumer.js';
import { printRunMessage, runPrintJob, runPrintShard } from '../../../shared/documents/index.js';

export const handler = defineConsumer({
  queue: 'print-batches',
  message: printRunMessage,
  resources: { table: 'write' },
  handle: ({ printDate, run, shard }) => (run !== undefined && shard !== undefined ? runPrintShard(printDate, run, shard) : runPrintJob(printDate)),
  logged: ({ run, shard }, outcome) => ({ run, shard, ...outcome }),
});
