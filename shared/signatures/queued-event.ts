/** The message of the signature-events queue: a verified vendor event, as the callback queued it. */
import * as z from 'zod/mini';
import { builtOnFirstUse } from '../platform/request-fields.js';
import { SIGNATURE_EVENT_TYPES } from './model.js';

const text = (max: number) => z.string().check(z.maxLength(max));

/** Built on first use, by the consumer's first message. */
export const queuedSignatureEventMessage = builtOnFirstUse(() => z.object({
  event: z.looseObject({
    event_type: z.enum(SIGNATURE_EVENT_TYPES),
    occurred_at: text(64),
    signature_request_id: z.optional(text(200)),
    file_id: z.optional(text(200)),
  }),
  received_at: text(64),
}));
