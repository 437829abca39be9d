/**
 * The local stand-ins for the table's pipes of the CDK app (shared/platform/queues.ts
 * TABLE_PIPES): in AWS the table's stream carries each new deliverable request to the
 * `documents` queue and each outbox event to the `events` queue. Local tables have no stream
 * (DynamoDB Local answers a stream read in tens of milliseconds of its one busy core, and it
 * looks the stream up on every write to a table that has one), so each pipe here does what the
 * stream does from the commits it sees: the DynamoDB client of this process reports every write
 * it committed (`watchCommits`), and a new item of the pipe's entity is sent to its queue at once,
 * ten to a call. Items another process committed (`npm run nightly`), or committed while no
 * service ran, are found by polling the items still waiting, one small index Query per shard:
 * every `pollMs` while it finds work, backing off to `idlePollMs` while it finds none, so an idle
 * service leaves DynamoDB Local alone. Each waiting item is sent once, and again only if it is
 * still waiting after the queue's visibility timeout (its message failed and was dead-lettered,
 * or was lost): the consumers are idempotent.
 */
import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { pendingDeliverableRequests } from '../../shared/documents/request-store.js';
import { eventKeyOf, pendingEvents } from '../../shared/events/store.js';
import { onClientCreated } from '../../shared/platform/clients.js';
import { QUEUES, queueUrlVariable, TABLE_PIPES } from '../../shared/platform/queues.js';

export interface PipeDispatcher {
  stop(): Promise<void>;
}

interface DispatcherOptions {
  sqs: SQSClient;
  /** The poll's interval while it finds work (default 250 ms). */
  pollMs?: number;
  /** The longest interval it backs off to while it finds none (default 5 s). */
  idlePollMs?: number;
  onError?: (error: unknown) => void;
}

type Attribute = { S?: string };
/** Listeners of committed items, by entity: each hears the pipe attribute's value of every new item. */
const commitListeners = new Map<string, Set<(value: string) => void>>();
let watching = false;

/**
 * Hooks this process's DynamoDB client (once): after a write commits, each Put of an item whose
 * entity a pipe carries is reported to that pipe, as the stream would carry it.
 */
function watchCommits(): void {
  if (watching) return;
  watching = true;
  onClientCreated((client) => {
    if (!(client instanceof DynamoDBClient)) return;
    client.middlewareStack.add(
      (next) => async (args) => {
        const result = await next(args);
        const input = args.input as { Item?: Record<string, Attribute>; TransactItems?: Array<{ Put?: { Item?: Record<string, Attribute> } }>; RequestItems?: Record<string, Array<{ PutRequest?: { Item?: Record<string, Attribute> } }>> };
        const items = [
          input.Item,
          ...(input.TransactItems ?? []).map((entry) => entry.Put?.Item),
          ...Object.values(input.RequestItems ?? {}).flatMap((requests) => (Array.isArray(requests) ? requests.map((request) => request.PutRequest?.Item) : [])),
        ];
        for (const item of items) {
          const entity = item?.entity?.S;
          const listeners = entity ? commitListeners.get(entity) : undefined;
          if (!listeners) continue;
          const pipe = TABLE_PIPES.find((candidate) => candidate.entity === entity)!;
          const value = item?.[pipe.attribute]?.S;
          if (value) for (const listener of listeners) listener(value);
        }
        return result;
      },
      // After the document client has marshalled the input: items are AttributeValues here.
      { step: 'build', name: 'localPipeCommits' },
    );
  });
}

/** One pipe: what this process commits, sent at once; the waiting items, polled with backoff; ten to a call. */
function startPipeDispatcher(entity: string, waitingKeys: () => Promise<string[]>, options: DispatcherOptions): PipeDispatcher {
  const pipe = TABLE_PIPES.find((candidate) => candidate.entity === entity)!;
  const resendAfterMs = QUEUES[pipe.queue].visibilityTimeoutSeconds * 1000;
  const pollMs = options.pollMs ?? 250;
  const idlePollMs = Math.max(pollMs, options.idlePollMs ?? 5000);
  const onError = options.onError ?? ((error: unknown) => console.error(`[${pipe.name} pipe]`, error));
  /** Key → when its message went out. */
  const sentAt = new Map<string, number>();
  /** Keys committed here, not yet sent. */
  const committed = new Set<string>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;
  let sending: Promise<void> = Promise.resolve();

  const queueUrl = () => {
    const url = process.env[queueUrlVariable(pipe.queue)];
    if (!url) throw new Error(`The ${pipe.name} pipe has no queue: ${queueUrlVariable(pipe.queue)} is not set`);
    return url;
  };

  /** Sends keys ten to a call; a key the queue refused is left unsent, for the next poll. */
  const send = async (keys: string[]) => {
    // Every key counts as sent before the first call: a poll while the first ten are on their way
    // must not send the later ones a second time (under load it did, and the consumer fell further behind).
    const markedAt = Date.now();
    for (const key of keys) sentAt.set(key, markedAt);
    for (let start = 0; start < keys.length; start += 10) {
      const chunk = keys.slice(start, start + 10);
      if (stopped) {
        for (const key of keys.slice(start)) sentAt.delete(key);
        return;
      }
      try {
        const answer = await options.sqs.send(
          new SendMessageBatchCommand({ QueueUrl: queueUrl(), Entries: chunk.map((key, index) => ({ Id: String(index), MessageBody: JSON.stringify({ [pipe.attribute]: key }) })) }),
        );
        for (const failure of answer.Failed ?? []) sentAt.delete(chunk[Number(failure.Id)]);
      } catch (error) {
        for (const key of keys.slice(start)) sentAt.delete(key);
        throw error;
      }
    }
  };

  /** What was committed since the last send goes out now, behind any send still under way. */
  const sendCommitted = () => {
    sending = sending.then(async () => {
      if (stopped || committed.size === 0) return;
      const keys = [...committed];
      committed.clear();
      try {
        await send(keys);
      } catch (error) {
        if (!stopped) onError(error);
      }
    });
  };
  const onCommit = (key: string) => {
    if (stopped || sentAt.has(key)) return;
    const first = committed.size === 0;
    committed.add(key);
    // Commits of the same moment go out in one call.
    if (first) setImmediate(sendCommitted);
  };
  watchCommits();
  const listeners = commitListeners.get(entity) ?? new Set();
  commitListeners.set(entity, listeners);
  listeners.add(onCommit);

  /** One poll; answers whether it found anything to send. */
  const poll = async (): Promise<boolean> => {
    // A key sent after this read began may be missing from what it answers (the read saw the
    // table before the commit): only a key sent before it began and not waiting is done with.
    const readBegan = Date.now();
    const waiting = await waitingKeys();
    const now = Date.now();
    const due = waiting.filter((key) => {
      const last = sentAt.get(key);
      return !committed.has(key) && (last === undefined || now - last >= resendAfterMs);
    });
    await send(due);
    // Forget what is no longer waiting, so the map stays the size of the pending list. Under load a
    // read outlasts the poll interval, and forgetting keys sent while it ran sent them twice.
    const still = new Set(waiting);
    for (const [key, at] of sentAt) if (!still.has(key) && at < readBegan) sentAt.delete(key);
    return due.length > 0;
  };

  const loop = (async () => {
    let interval = pollMs;
    while (!stopped) {
      try {
        interval = (await poll()) ? pollMs : Math.min(idlePollMs, interval * 2);
      } catch (error) {
        if (!stopped) onError(error);
        interval = Math.min(idlePollMs, interval * 2);
      }
      await new Promise<void>((resolve) => {
        timer = setTimeout(resolve, interval);
        wake = resolve;
      });
    }
  })();

  return {
    stop: async () => {
      stopped = true;
      listeners.delete(onCommit);
      if (timer) clearTimeout(timer);
      wake?.();
      await loop;
      await sending;
    },
  };
}

/** The deliverable requests' pipe: each request a move committed, to the `documents` queue. */
export function startRequestDispatcher(options: DispatcherOptions): PipeDispatcher {
  return startPipeDispatcher('DeliverableRequest', async () => (await pendingDeliverableRequests(1000)).map((request) => request.requestId), options);
}

/** The policy events' pipe, to the `events` queue (a failed delivery's retry is a delayed message of its own: shared/events/delivery.ts). */
export function startEventDispatcher(options: DispatcherOptions): PipeDispatcher {
  return startPipeDispatcher('PolicyEvent', async () => (await pendingEvents(1000)).map(eventKeyOf), options);
}

/** Each pipe of TABLE_PIPES by the entity it carries, and its local stand-in. */
export const PIPE_DISPATCHERS: Readonly<Record<string, (options: DispatcherOptions) => PipeDispatcher>> = {
  DeliverableRequest: startRequestDispatcher,
  PolicyEvent: startEventDispatcher,
};
