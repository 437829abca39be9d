/**
 * A failed delivery's retry, arriving when it is due (the message was delayed until then, or
 * put back while the wait was longer than the queue can delay): the subscription's deliveries
 * of the policy are attempted again in order. Idempotent: a repeated message finds the
 * deliveries settled, leased or not yet due, and sends nothing twice.
 */
import * as z from 'zod/mini';
import { defineConsumer } from '../../../shared/platform/consumer.js';
import { runScheduledRetry } from '../../../shared/events/index.js';


export const handler = defineConsumer({
  queue: 'event-retries',
  message: () => z.object({
    subscriptionId: z.string().check(z.regex(/^sub_[0-9a-f]{24}$/)),
    policyId: z.string().check(z.regex(/^[A-Za-z0-9-]{1,64}$/)),
    at: z.iso.datetime(),
  }),
  resources: { table: 'write', queues: ['event-retries'], secrets: ['data-key'] },
  handle: (retry) => runScheduledRetry(retry),
  logged: ({ subscriptionId, policyId, at }, outcome) => ({ subscriptionId, policyId, at, outcome }),
});
