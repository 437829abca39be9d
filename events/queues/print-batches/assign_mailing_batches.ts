/**
 * Consumes print-batches: each message names a print date whose files go into mailing
 * batches (shared/documents/print-service.ts runPrintJob). A run is idempotent by
 * construction (batch labels derive from the envelope), so a redelivered message writes the
 * same batches again.
 */
import { defineConsumer } from '../../../shared/platform/consumer.js';
import { printRunMessage } from '../../../shared/documents/print-queue.js';
import { runPrintJob } from '../../../shared/documents/print-service.js';

export const handler = defineConsumer({
  queue: 'print-batches',
  message: printRunMessage,
  resources: { table: 'write' },
  handle: ({ printDate }) => runPrintJob(printDate),
  logged: ({ printDate }) => ({ printDate }),
});
