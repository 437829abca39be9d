/**
 * Applies the vendor events that application_signature_event_callback queued. Each record is
 * applied on its own (Powertools batch: a failure is reported for that record alone and it is
 * delivered again, then dead-lettered); applying is idempotent, so a duplicated webhook or a
 * redelivered record changes nothing the second time.
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { Logger } from '@aws-lambda-powertools/logger';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import type { ResourceAccess } from '../../../shared/platform/operation.js';
import { isSignatureEventType } from '../../../shared/signatures/model.js';
import { signaturePorts } from '../../../shared/signatures/ports.js';
import { applyQueuedSignatureEvent, type QueuedSignatureEvent } from '../../../shared/signatures/service.js';

export const resources: ResourceAccess = { table: 'write' };

const logger = new Logger({ serviceName: 'insurance-admin', persistentKeys: { consumer: 'signature-events/apply_signature_event' } });
const processor = new BatchProcessor(EventType.SQS);

function queuedEvent(record: SQSRecord): QueuedSignatureEvent {
  const parsed = JSON.parse(record.body) as Partial<QueuedSignatureEvent>;
  if (!parsed?.event || !isSignatureEventType(parsed.event.event_type) || typeof parsed.event.occurred_at !== 'string') {
    throw new Error('The message is not a queued signature event');
  }
  return parsed as QueuedSignatureEvent;
}

async function applyRecord(record: SQSRecord): Promise<void> {
  const queued = queuedEvent(record);
  const outcome = await applyQueuedSignatureEvent(queued, signaturePorts.documents);
  // Ids and the event type only: signer names and emails stay out of the logs.
  logger.info('signature event', { messageId: record.messageId, eventType: queued.event.event_type, requestId: queued.event.signature_request_id, outcome });
}

export const handler = async (event: SQSEvent, context: Context) =>
  processPartialResponse(event, applyRecord, processor, { context, throwOnFullBatchFailure: false });
