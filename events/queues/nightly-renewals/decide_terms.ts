/**
 * Decides the terms of nightly renewal batches (planned by events/schedules/nightly_renewals.ts
 * or process_renewals): renew, commit an approved held renewal, put a renewal in force, expire.
 * A batch redelivered after its success is not counted twice: its outcome is kept per (date, run, batch).
 */
import { defineConsumer } from '../../../shared/platform/consumer.js';
import { decideRenewalBatch, renewalBatchMessage } from '../../../shared/lifecycle/index.js';
import { decideRenewalTermMove } from '../../../shared/moves/renew.js';
import { moneyPathTracing } from '../../../shared/platform/tracing.js';

export const handler = defineConsumer({
  queue: 'nightly-renewals',
  message: renewalBatchMessage,
  resources: { table: 'write' },
  tracing: moneyPathTracing,
  idempotency: { scope: 'nightly-renewals', key: (batch) => `${batch.date}:${batch.runId}:${batch.batch}` },
  handle: (batch) => decideRenewalBatch(batch, (ref, date) => decideRenewalTermMove(ref, date)),
  logged: (batch, counts) => ({ date: batch.date, runId: batch.runId, batch: batch.batch, ...counts }),
});
