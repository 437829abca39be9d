/**
 * The local stand-in for the EventBridge pipes of the CDK app (shared/platform/queues.ts
 * TABLE_PIPES): reads the table's stream on DynamoDB Local and sends each new item of a
 * piped entity to its queue as `{"<attribute>": "<value>"}`, as the deployed pipe's input
 * template does.
 *
 * DynamoDB Local speaks the DynamoDB Streams API on its own endpoint; the service has no
 * streams client among its dependencies, and DynamoDB Local does not check signatures, so
 * the few calls are made over fetch. It starts at the latest record of the shards open when it
 * starts (replaying the whole stream would make every start read every record the table's
 * stream holds, which on a shared test table is minutes of DynamoDB Local's one core): what was
 * committed while the service was stopped is found by `sweep`, the caller's own listing of what
 * is still waiting (deliverable requests not yet rendered), sent once the iterators are taken.
 * A record is passed over only once its message was accepted by the queue, and consumers are
 * idempotent, so a message sent twice does no harm. Shards opened later are read from their
 * start, followed as they close.
 */
import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { queueUrlVariable, type TablePipe } from '../../shared/platform/queues.js';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from './stores.js';

interface StreamRecord {
  eventName?: string;
  dynamodb?: { NewImage?: Record<string, { S?: string }>; SequenceNumber?: string };
}

export interface StreamPipeOptions {
  endpoint: string;
  tableName: string;
  pipes: readonly TablePipe[];
  sqs: SQSClient;
  /** How often an idle shard is read again. */
  pollMs?: number;
  onError?: (error: unknown) => void;
  /** What waits to be sent from before the start (records the pipe does not replay), as each pipe's attribute value. */
  sweep?: () => Promise<Array<{ pipe: TablePipe; value: string }>>;
}

export interface StreamPipe {
  stop(): Promise<void>;
}

async function streamsCall<T>(endpoint: string, action: string, body: unknown): Promise<T> {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-amz-json-1.0',
      'x-amz-target': `DynamoDBStreams_20120810.${action}`,
      'x-amz-date': '20260101T000000Z',
      // DynamoDB Local reads the access key from the header and checks no signature.
      authorization: `AWS4-HMAC-SHA256 Credential=${LOCAL_CREDENTIALS.accessKeyId}/20260101/${LOCAL_REGION}/dynamodb/aws4_request, SignedHeaders=host, Signature=0`,
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`DynamoDB Streams ${action} answered ${response.status}: ${text.slice(0, 200)}`);
  return JSON.parse(text) as T;
}

export async function startStreamPipe(options: StreamPipeOptions): Promise<StreamPipe> {
  const pollMs = options.pollMs ?? 200;
  const onError = options.onError ?? ((error: unknown) => console.error('[stream-pipe]', error));
  const call = <T>(action: string, body: unknown) => streamsCall<T>(options.endpoint, action, body);
  const streams = await call<{ Streams?: Array<{ StreamArn: string }> }>('ListStreams', { TableName: options.tableName });
  const streamArn = streams.Streams?.at(-1)?.StreamArn;
  if (!streamArn) throw new Error(`Table ${options.tableName} has no stream: the local pipes need one`);

  let stopped = false;
  let wake: (() => void) | undefined;
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const sendValue = async (pipe: TablePipe, value: string) => {
    const queueUrl = process.env[queueUrlVariable(pipe.queue)];
    if (!queueUrl) throw new Error(`The ${pipe.name} pipe has no queue: ${queueUrlVariable(pipe.queue)} is not set`);
    await options.sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify({ [pipe.attribute]: value }) }));
  };

  const send = async (record: StreamRecord) => {
    if (record.eventName !== 'INSERT') return;
    const image = record.dynamodb?.NewImage ?? {};
    for (const pipe of options.pipes) {
      if (image.entity?.S !== pipe.entity) continue;
      const value = image[pipe.attribute]?.S;
      if (!value) continue;
      await sendValue(pipe, value);
    }
  };

  /** Shard id → the iterator to read next; a closed shard, read to its end, is dropped. */
  const iterators = new Map<string, string>();
  const finished = new Set<string>();
  /** The last record of each shard whose message went out: where a new iterator starts. */
  const sent = new Map<string, string>();
  /** The shards open at the start: read from their latest record (the sweep covers what came before). */
  const atStart = new Set<string>();

  const discoverShards = async () => {
    const described = await call<{ StreamDescription: { Shards?: Array<{ ShardId: string; ParentShardId?: string }> } }>('DescribeStream', { StreamArn: streamArn });
    for (const shard of described.StreamDescription.Shards ?? []) {
      if (iterators.has(shard.ShardId) || finished.has(shard.ShardId)) continue;
      // A child shard is read once its parent is done, keeping an item's records in order.
      if (shard.ParentShardId && !finished.has(shard.ParentShardId) && described.StreamDescription.Shards?.some((other) => other.ShardId === shard.ParentShardId)) continue;
      const after = sent.get(shard.ShardId);
      const { ShardIterator } = await call<{ ShardIterator?: string }>('GetShardIterator', {
        StreamArn: streamArn,
        ShardId: shard.ShardId,
        ...(after
          ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: after }
          : { ShardIteratorType: atStart.has(shard.ShardId) ? 'LATEST' : 'TRIM_HORIZON' }),
      });
      if (ShardIterator) iterators.set(shard.ShardId, ShardIterator);
    }
  };

  const initial = await call<{ StreamDescription: { Shards?: Array<{ ShardId: string }> } }>('DescribeStream', { StreamArn: streamArn });
  for (const shard of initial.StreamDescription.Shards ?? []) atStart.add(shard.ShardId);
  await discoverShards();
  for (const { pipe, value } of (await options.sweep?.()) ?? []) await sendValue(pipe, value);

  const loop = (async () => {
    let lastDiscovery = Date.now();
    while (!stopped) {
      try {
        if (iterators.size === 0 || Date.now() - lastDiscovery > 5_000) {
          await discoverShards();
          lastDiscovery = Date.now();
        }
        let busy = false;
        for (const [shardId, iterator] of [...iterators]) {
          if (stopped) break;
          const page = await call<{ Records?: StreamRecord[]; NextShardIterator?: string }>('GetRecords', { ShardIterator: iterator, Limit: 100 });
          for (const record of page.Records ?? []) {
            await send(record);
            if (record.dynamodb?.SequenceNumber) sent.set(shardId, record.dynamodb.SequenceNumber);
          }
          if ((page.Records ?? []).length > 0) busy = true;
          if (page.NextShardIterator) iterators.set(shardId, page.NextShardIterator);
          else {
            iterators.delete(shardId);
            finished.add(shardId);
            lastDiscovery = 0;
          }
        }
        if (!busy) await pause(pollMs);
      } catch (error) {
        // Iterators are asked for again (one may have expired), after the last record sent.
        if (!stopped) onError(error);
        iterators.clear();
        await pause(1_000);
      }
    }
  })();

  return {
    stop: async () => {
      stopped = true;
      wake?.();
      await loop;
    },
  };
}
