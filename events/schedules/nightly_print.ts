/**
 * The nightly print run, started by EventBridge at 06:00 UTC (the night before the US
 * business day): it asks the print-batches consumer to put today's files into mailing
 * batches. The work itself happens in the consumer, so a failure is retried by SQS and
 * ends in the dead-letter queue rather than being lost with this invocation.
 */
import type { ResourceAccess } from '../../shared/platform/operation.js';
import { enqueuePrintRun } from '../../shared/documents/print-queue.js';
import { nightlyPrintDate } from '../../shared/documents/print-service.js';

export const schedule = 'cron(0 6 * * ? *)';

export const resources: ResourceAccess = { queues: ['print-batches'] };

/** A run for another date can be asked with `{ "printDate": "YYYY-MM-DD" }` (a manual or local run). */
export async function handler(event?: { printDate?: string; time?: string }): Promise<{ printDate: string }> {
  const printDate = event?.printDate ?? nightlyPrintDate(event?.time ? new Date(event.time) : new Date());
  await enqueuePrintRun(printDate);
  return { printDate };
}
