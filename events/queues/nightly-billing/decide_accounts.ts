/**
 * Decides the accounts of nightly billing batches (planned by events/schedules/nightly-billing.ts):
 * pending cancellation for non-payment, its rescission, the cancellation itself. Powertools
 * batch reports the batches that failed, so only those come back; Powertools idempotency
 * keeps a batch redelivered after its success from being counted twice.
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import type { ResourceAccess } from '../../../shared/platform/operation.js';
import { onceForKey } from '../../../shared/platform/idempotency.js';
import { decideNightlyBatch, NIGHTLY_JOB, type NightlyBatch } from '../../../shared/billing/nightly.js';
import { moves } from '../../../shared/moves.js';

export const resources: ResourceAccess = { table: 'write', bucket: 'write' };

const processor = new BatchProcessor(EventType.SQS);

function batchOf(record: SQSRecord): NightlyBatch {
  const body = JSON.parse(record.body) as Partial<NightlyBatch>;
  const wellFormed =
    body.job === NIGHTLY_JOB && typeof body.date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(body.date) && typeof body.runId === 'string' &&
    Number.isInteger(body.batch) && Array.isArray(body.accounts) &&
    body.accounts.every((ref) => typeof ref?.policyId === 'string' && typeof ref?.termId === 'string');
  // A malformed message fails every time and ends in the dead-letter queue.
  if (!wellFormed) throw new Error(`Message ${record.messageId} is not a nightly billing batch`);
  return body as NightlyBatch;
}

const decide = async (record: SQSRecord) => {
  const batch = batchOf(record);
  return onceForKey('nightly-billing', `${batch.date}:${batch.runId}:${batch.batch}`, { date: batch.date, runId: batch.runId, batch: batch.batch }, () => decideNightlyBatch(batch, moves));
};

export const handler = async (event: SQSEvent, context: Context) => processPartialResponse(event, decide, processor, { context });
