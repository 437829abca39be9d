/**
 * The local stand-in for the EventBridge pipe of the CDK app (shared/platform/queues.ts
 * TABLE_PIPES) that carries each new deliverable request from the table's stream to the
 * `documents` queue. Locally it reads the requests still waiting (one small index Query,
 * `pendingDeliverableRequests`) a few times a second instead of the stream: DynamoDB Local
 * answers a stream read in tens of milliseconds of its one busy core, and a poller per service
 * kept it saturated, while the Query of an empty or small pending list costs next to nothing.
 * The same request list is what the stream would carry, so the consumer sees the same messages;
 * a request committed while no service ran is found at the next start. Each waiting request is
 * sent once, and again only if it is still waiting after the queue's visibility timeout (its
 * message failed and was dead-lettered, or was lost): the consumer is idempotent.
 */
import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { pendingDeliverableRequests } from '../../shared/documents/request-store.js';
import { QUEUES, queueUrlVariable, TABLE_PIPES } from '../../shared/platform/queues.js';

export interface RequestDispatcher {
  stop(): Promise<void>;
}

export function startRequestDispatcher(options: { sqs: SQSClient; pollMs?: number; onError?: (error: unknown) => void }): RequestDispatcher {
  const pipe = TABLE_PIPES.find((candidate) => candidate.entity === 'DeliverableRequest')!;
  const resendAfterMs = QUEUES[pipe.queue].visibilityTimeoutSeconds * 1000;
  const pollMs = options.pollMs ?? 250;
  const onError = options.onError ?? ((error: unknown) => console.error('[request-dispatcher]', error));
  /** Request id → when its message went out. */
  const sentAt = new Map<string, number>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;

  const dispatch = async () => {
    const queueUrl = process.env[queueUrlVariable(pipe.queue)];
    if (!queueUrl) throw new Error(`The ${pipe.name} pipe has no queue: ${queueUrlVariable(pipe.queue)} is not set`);
    const waiting = await pendingDeliverableRequests(1000);
    const now = Date.now();
    for (const request of waiting) {
      if (stopped) return;
      const last = sentAt.get(request.requestId);
      if (last !== undefined && now - last < resendAfterMs) continue;
      await options.sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify({ [pipe.attribute]: request.requestId }) }));
      sentAt.set(request.requestId, now);
    }
    // Forget what is no longer waiting, so the map stays the size of the pending list.
    const still = new Set(waiting.map((request) => request.requestId));
    for (const id of sentAt.keys()) if (!still.has(id)) sentAt.delete(id);
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
