/**
 * The local stand-ins for the table's pipes of the CDK app (shared/platform/queues.ts
 * TABLE_PIPES): in AWS the table's stream carries each new deliverable request to the
 * `documents` queue and each outbox event to the `events` queue. Local tables have no stream
 * (DynamoDB Local answers a stream read in tens of milliseconds of its one busy core, and it
 * looks the stream up on every write to a table that has one), so each pipe here reads the
 * items still waiting, one small index Query a few times a second, and sends each to its queue
 * as the stream would, so the same consumer sees the same messages; an item committed while no
 * service ran is found at the next start. Each waiting item is sent once, and again only if it
 * is still waiting after the queue's visibility timeout (its message failed and was
 * dead-lettered, or was lost): the consumers are idempotent. The events pipe also runs the
 * every-minute retry step (events/schedules/retry_event_deliveries.ts) at each poll.
 */
import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { pendingDeliverableRequests } from '../../shared/documents/request-store.js';
import { retryDueDeliveries } from '../../shared/events/delivery.js';
import { eventKeyOf, pendingEvents } from '../../shared/events/store.js';
import { QUEUES, queueUrlVariable, TABLE_PIPES } from '../../shared/platform/queues.js';

export interface PipeDispatcher {
  stop(): Promise<void>;
}

interface DispatcherOptions {
  sqs: SQSClient;
  pollMs?: number;
  onError?: (error: unknown) => void;
}

/** One pipe's loop: the waiting items' keys (as the pipe's message carries them), sent ten to a call. */
function startPipeDispatcher(entity: string, waitingKeys: () => Promise<string[]>, options: DispatcherOptions & { afterPoll?: () => Promise<void> }): PipeDispatcher {
  const pipe = TABLE_PIPES.find((candidate) => candidate.entity === entity)!;
  const resendAfterMs = QUEUES[pipe.queue].visibilityTimeoutSeconds * 1000;
  const pollMs = options.pollMs ?? 250;
  const onError = options.onError ?? ((error: unknown) => console.error(`[${pipe.name} pipe]`, error));
  /** Key → when its message went out. */
  const sentAt = new Map<string, number>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;

  const dispatch = async () => {
    const queueUrl = process.env[queueUrlVariable(pipe.queue)];
    if (!queueUrl) throw new Error(`The ${pipe.name} pipe has no queue: ${queueUrlVariable(pipe.queue)} is not set`);
    const waiting = await waitingKeys();
    const now = Date.now();
    const due = waiting.filter((key) => {
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
    // Forget what is no longer waiting, so the map stays the size of the pending list.
    const still = new Set(waiting);
    for (const key of sentAt.keys()) if (!still.has(key)) sentAt.delete(key);
    if (options.afterPoll && !stopped) await options.afterPoll();
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

/** The deliverable requests' pipe: each request a move committed, to the `documents` queue. */
export function startRequestDispatcher(options: DispatcherOptions): PipeDispatcher {
  return startPipeDispatcher('DeliverableRequest', async () => (await pendingDeliverableRequests(1000)).map((request) => request.requestId), options);
}

/** The policy events' pipe, to the `events` queue, and (unless `retries: false`) the deliveries' retry step. */
export function startEventDispatcher(options: DispatcherOptions & { retries?: boolean }): PipeDispatcher {
  return startPipeDispatcher('PolicyEvent', async () => (await pendingEvents(1000)).map(eventKeyOf), {
    ...options,
    ...(options.retries !== false ? { afterPoll: () => retryDueDeliveries().then(() => undefined) } : {}),
  });
}
