/**
 * Decides the accounts of nightly billing batches (planned by events/schedules/nightly_billing.ts):
 * pending cancellation for non-payment, its rescission, the cancellation itself. A batch
 * redelivered after its success must not be counted twice: its outcome is kept per
 * (date, run, batch).
 */
import { defineConsumer } from '../../../shared/platform/consumer.js';
import { decideNightlyBatch, nightlyBatchMessage } from '../../../shared/billing/index.js';
import { cancelMove } from '../../../shared/moves/cancel.js';
import { rescindMove } from '../../../shared/moves/rescind.js';
import { moneyPathTracing } from '../../../shared/platform/tracing.js';

export const handler = defineConsumer({
  queue: 'nightly-billing',
  message: nightlyBatchMessage,
  resources: { table: 'write' },
  tracing: moneyPathTracing,
  idempotency: { scope: 'nightly-billing', key: (batch) => `${batch.date}:${batch.runId}:${batch.batch}` },
  handle: (batch) => decideNightlyBatch(batch, { cancel: cancelMove, rescind: rescindMove }),
  logged: (batch, counts) => ({ date: batch.date, runId: batch.runId, batch: batch.batch, ...counts }),
});
