/** The message of the signature-events queue: a verified vendor event, as the callback queued it. */
import * as z from 'zod/mini';
import { SIGNATURE_EVENT_TYPES } from './model.js';

const text = (max: number) => z.string().check(z.maxLength(max));

export const queuedSignatureEventMessage = z.object({
  event: z.looseObject({
    event_type: z.enum(SIGNATURE_EVENT_TYPES),
    occurred_at: text(64),
    signature_request_id: z.optional(text(200)),
    file_id: z.optional(text(200)),
  }),
  received_at: text(64),
});
