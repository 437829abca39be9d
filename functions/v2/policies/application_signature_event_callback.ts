import * as z from 'zod/mini';
import { defineOperationWithoutCaller } from '../../../shared/define-operation.js';
import { optionalId, shortText } from '../../../shared/platform/request-fields.js';
import { SIGNATURE_EVENT_TYPES, queueSignatureEvent, verifyVendorWebhook, singleMessageAnswer } from '../../../shared/signatures/index.js';

const optionalText = () => z.optional(shortText());

export const handler = defineOperationWithoutCaller({
  version: 'v2',
  name: 'application_signature_event_callback',
  summary:
    "The signature vendor's webhook: no credential, but an HMAC-SHA256 signature of the raw body with the vendor's secret and a recent timestamp (header X-Signature: t=<unix>,v1=<hex>); the event is queued and applied once",
  permission: null,
  authentication: 'none',
  authenticateRequest: (request) => verifyVendorWebhook(request),
  input: () => z.object({
    event_type: z.enum(SIGNATURE_EVENT_TYPES, { error: `must be one of ${SIGNATURE_EVENT_TYPES.join(', ')}` }),
    policy_id: optionalId(),
    signer_name: optionalText(),
    signer_email_address: optionalText(),
    signature_url: z.optional(z.string().check(z.maxLength(2000, 'must be at most 2000 characters'))),
    file_id: optionalId(),
    signature_request_id: optionalId(),
    occurred_at: z.optional(z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date and time' })),
  }),
  resources: { queues: ['signature-events'], secrets: ['signature-vendor'] },
  handle: async (event) =>
    singleMessageAnswer(async () => {
      await queueSignatureEvent(event);
      return { message: 'Event processed', data: null };
    }, null),
});
