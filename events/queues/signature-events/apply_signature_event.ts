/**
 * Applies the vendor events that application_signature_event_callback queued. Applying is
 * idempotent by construction (the applied event's record is created in the transaction that
 * applies it), so a duplicated webhook or a redelivered record changes nothing the second time.
 * Marking the signed file needs only the documents' file record: this consumer never loads
 * the renderer.
 */
import { defineConsumer } from '../../../shared/platform/consumer.js';
import { queuedSignatureEventMessage, applyQueuedSignatureEvent, type QueuedSignatureEvent, signedFileMarker } from '../../../shared/signatures/index.js';

export const handler = defineConsumer({
  queue: 'signature-events',
  message: queuedSignatureEventMessage,
  resources: { table: 'write' },
  handle: (queued) => applyQueuedSignatureEvent(queued as QueuedSignatureEvent, signedFileMarker),
  // Ids and the event type only: signer names and emails stay out of the logs.
  logged: (queued, outcome) => ({ eventType: queued.event.event_type, requestId: queued.event.signature_request_id, outcome }),
});
