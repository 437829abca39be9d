/**
 * Delivers the policy events the table's stream brings here (one outbox item per message):
 * the event gets a delivery per matching subscription and the first attempts are made in its
 * policy's order. Idempotent by construction: a repeated message creates no second delivery,
 * and what a subscriber refused is retried at its own time (the `event-retries` queue), not by failing this message.
 */
import * as z from 'zod/mini';
import { defineConsumer } from '../../../shared/platform/consumer.js';
import { publishEventInTurn } from '../../../shared/events/index.js';

export const handler = defineConsumer({
  queue: 'events',
  message: () => z.object({ eventKey: z.string().check(z.regex(/^[A-Za-z0-9-]{1,64}\/evt_[0-9a-f]{24}$/)) }),
  resources: { table: 'write', queues: ['event-retries'], secrets: ['data-key'] },
  handle: ({ eventKey }) => {
    const [policyId, eventId] = eventKey.split('/');
    return publishEventInTurn(policyId, eventId);
  },
  logged: ({ eventKey }, outcome) => ({ eventKey, outcome }),
});
