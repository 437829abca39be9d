/**
 * The local stand-in for the `policy-events` pipe (shared/platform/queues.ts TABLE_PIPES) and
 * for the every-minute retry schedule (events/schedules/retry_event_deliveries.ts). Local
 * tables have no stream (DynamoDB Local slows down with one, see request-dispatcher.ts): the
 * outbox events still waiting carry the pending events' index, which this polls with one small
 * Query, sending each to the `events` queue as the stream would, so the same consumer delivers
 * them. Each waiting event is sent once, and again only if still waiting after the queue's
 * visibility timeout. Each poll also runs the retry step for the deliveries due.
 */
import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { retryDueDeliveries } from '../../shared/events/delivery.js';
import { eventKeyOf, pendingEvents } from '../../shared/events/store.js';
import { QUEUES, queueUrlVariable, TABLE_PIPES } from '../../shared/platform/queues.js';

export interface EventDispatcher {
  stop(): Promise<void>;
}

export function startEventDispatcher(options: { sqs: SQSClient; pollMs?: number; retries?: boolean; onError?: (error: unknown) => void }): EventDispatcher {
  const pipe = TABLE_PIPES.find((candidate) => candidate.entity === 'PolicyEvent')!;
  const resendAfterMs = QUEUES[pipe.queue].visibilityTimeoutSeconds * 1000;
  const pollMs = options.pollMs ?? 250;
  const onError = options.onError ?? ((error: unknown) => console.error('[event-dispatcher]', error));
  const sentAt = new Map<string, number>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;

  const dispatch = async () => {
    const queueUrl = process.env[queueUrlVariable(pipe.queue)];
    if (!queueUrl) throw new Error(`The ${pipe.name} pipe has no queue: ${queueUrlVariable(pipe.queue)} is not set`);
    const waiting = await pendingEvents(1000);
    const now = Date.now();
    const due = waiting.map(eventKeyOf).filter((key) => {
      const last = sentAt.get(key);
      return last === undefined || now - last >= resendAfterMs;
    });
    // Ten to a call, as the pipe batches: a backlog goes out in a tenth of the calls.
    for (let start = 0; start < due.length && !stopped; start += 10) {
      const keys = due.slice(start, start + 10);
      const answer = await options.sqs.send(
        new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: keys.map((key, index) => ({ Id: String(index), MessageBody: JSON.stringify({ [pipe.attribute]: key }) })) }),
      );
      // An entry the queue refused is sent again at the next poll.
      const refused = new Set((answer.Failed ?? []).map((failure) => Number(failure.Id)));
      keys.forEach((key, index) => {
        if (!refused.has(index)) sentAt.set(key, now);
      });
    }
    const still = new Set(waiting.map(eventKeyOf));
    for (const key of sentAt.keys()) if (!still.has(key)) sentAt.delete(key);
    if (options.retries !== false && !stopped) await retryDueDeliveries();
  };

  const loop = (async () => {
    while (!stopped) {
      try {
        await dispatch();
      } catch (error) {
        if (!stopped) onError(error);
      }
      await new Promise<void>((resolve) => {
        timer = setTimeout(resolve, pollMs);
        wake = resolve;
      });
    }
  })();

  return {
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      wake?.();
      await loop;
    },
  };
}
