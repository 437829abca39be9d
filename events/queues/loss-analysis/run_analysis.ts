/**
 * Runs the loss-analysis jobs async_request_loss_analysis queues. Each record is handled on
 * its own (Powertools batch): a failure is reported for that record alone and it comes back
 * after the visibility timeout, then goes to the dead-letter queue after 5 receives. A record
 * that is not a job (poison) fails every time, so it ends there too. Running a job twice
 * records it once (runLossAnalysisJob's conditional write).
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { Logger } from '@aws-lambda-powertools/logger';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { ResourceAccess } from '../../../shared/platform/operation.js';
import { lossAnalysisJob, runLossAnalysisJob } from '../../../shared/review/loss-analysis-service.js';

/** Reads the revision and the catalog, writes the report onto the revision. */
export const resources: ResourceAccess = { table: 'write' };

const processor = new BatchProcessor(EventType.SQS);
const logger = new Logger({ serviceName: 'loss-analysis' });

class PoisonMessageError extends Error {
  constructor(messageId: string) {
    super(`Message ${messageId} is not a loss-analysis job`);
    this.name = 'PoisonMessageError';
  }
}

async function runRecord(record: SQSRecord): Promise<void> {
  let body: unknown;
  try {
    body = JSON.parse(record.body);
  } catch {
    throw new PoisonMessageError(record.messageId);
  }
  const job = lossAnalysisJob.safeParse(body);
  if (!job.success) throw new PoisonMessageError(record.messageId);
  const outcome = await runLossAnalysisJob(job.data);
  // Ids only: the job's revision and outcome, nothing about the insured or the property.
  logger.info('loss analysis job', { jobId: job.data.job_id, revisionId: job.data.revision_id, outcome, receiveCount: record.attributes.ApproximateReceiveCount });
}

export async function handler(event: SQSEvent, context: Context): Promise<SQSBatchResponse> {
  return processPartialResponse(event, runRecord, processor, { context, throwOnFullBatchFailure: false });
}
