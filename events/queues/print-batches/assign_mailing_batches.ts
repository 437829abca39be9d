/**
 * Consumes print-batches: each message names a print date whose files go into mailing
 * batches (shared/documents/print-service.ts runPrintJob). A run is idempotent by
 * construction (batch labels derive from the envelope), so a redelivered message writes the
 * same batches again; a message that fails is reported alone and retried, then dead-lettered.
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { ResourceAccess } from '../../../shared/platform/operation.js';
import { printRunRequest } from '../../../shared/documents/print-queue.js';
import { runPrintJob } from '../../../shared/documents/print-service.js';

export const resources: ResourceAccess = { table: 'write' };

const processor = new BatchProcessor(EventType.SQS);

async function runRecord(record: SQSRecord): Promise<void> {
  await runPrintJob(printRunRequest(record.body).printDate);
}

export async function handler(event: SQSEvent, context: Context): Promise<SQSBatchResponse> {
  return processPartialResponse(event, runRecord, processor, { context, throwOnFullBatchFailure: false });
}
