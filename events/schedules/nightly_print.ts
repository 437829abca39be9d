/**
 * The nightly print run, started by EventBridge at 06:00 UTC (the night before the US
 * business day): it records the run of today's print date and fans it out, one print-batches
 * message per shard of the print lists. The work itself happens in the consumers, in
 * parallel, so a failure is retried by SQS and ends in the dead-letter queue rather than being
 * lost with this invocation, and no invocation holds more than a shard of the night's files.
 */
import { defineSchedule } from '../../shared/platform/schedule.js';
import { clock } from '../../shared/platform/clock.js';
import { nightlyPrintDate, planPrintRun } from '../../shared/documents/index.js';

/** A run for another date can be asked with `{ "printDate": "YYYY-MM-DD" }` (a manual or local run). */
export const handler = defineSchedule({
  schedule: 'cron(0 6 * * ? *)',
  resources: { table: 'write', queues: ['print-batches'] },
  run: async (event: { printDate?: string; time?: string }): Promise<{ printDate: string }> => {
    const printDate = event.printDate ?? nightlyPrintDate(event.time ? new Date(event.time) : clock.now());
    await planPrintRun(printDate);
    return { printDate };
  },
});
