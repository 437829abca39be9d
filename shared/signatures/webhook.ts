/**
 * application_signature_event_callback's two steps: judging the vendor's signature over the
 * raw body (before anything is parsed or queued), then queueing the event for the consumer
 * (events/queues/signature-events), which applies it exactly once.
 */
import { signatureConfig } from '../platform/config.js';
import { AuthenticationError } from '../platform/errors.js';
import type { ArrivedRequest } from '../platform/operation.js';
import { sendInBatches } from '../platform/queue-sends.js';
import { SIGNATURE_HEADER } from './builtin-vendor.js';
import type { SignatureEventType } from './model.js';
import type { QueuedSignatureEvent } from './service.js';
import { StaleWebhookError, verifyWebhook } from './webhook-signature.js';
import { clock } from '../platform/clock.js';

/** Refuses (401) a delivery whose signature does not match the vendor's secret or is stale. */
export function verifyVendorWebhook(request: ArrivedRequest, now = new Date()): void {
  try {
    verifyWebhook({ header: request.headers[SIGNATURE_HEADER], rawBody: request.rawBody, secrets: signatureConfig.vendorSecrets(), now });
  } catch (error) {
    if (error instanceof StaleWebhookError) throw new AuthenticationError('The webhook is too old (or from the future): refused as a possible replay');
    throw new AuthenticationError('The webhook signature is missing or does not match the vendor secret');
  }
}

export interface WebhookEventInput {
  event_type: SignatureEventType;
  policy_id?: string;
  signer_name?: string;
  signer_email_address?: string;
  signature_url?: string;
  file_id?: string;
  signature_request_id?: string;
  occurred_at?: string;
}

export async function queueSignatureEvent(input: WebhookEventInput, receivedAt = clock.now()): Promise<void> {
  const queued: QueuedSignatureEvent = {
    event: { ...input, occurred_at: input.occurred_at ?? receivedAt.toISOString() },
    received_at: receivedAt.toISOString(),
  };
  await sendInBatches('signature-events', [{ id: 'event', body: queued }], 'the signature event');
}
