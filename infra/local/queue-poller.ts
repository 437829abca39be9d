/**
 * Drives a queue consumer locally the way Lambda's SQS event source mapping does with
 * ReportBatchItemFailures turned on: long-poll, hand the batch to the handler as an
 * SQSEvent, then delete what succeeded. Anything not deleted comes back after the
 * queue's visibility timeout and, after maxReceiveCount receives, goes to the DLQ.
 *
 * Batches are processed one at a time (Lambda would run several concurrently), which
 * keeps local runs and tests deterministic.
 */
import { randomUUID } from 'node:crypto';
import {
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  type Message,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent, SQSMessageAttributes, SQSRecord } from 'aws-lambda';

export interface QueuePollerOptions {
  client: SQSClient;
  queueUrl: string;
  /** Skips looking the ARN up with GetQueueAttributes. */
  queueArn?: string;
  handler: (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;
  /** Records per invocation; Lambda's default is 10. */
  batchSize?: number;
  waitTimeSeconds?: number;
  onError?: (error: unknown) => void;
}

export interface QueuePoller {
  stop(): Promise<void>;
}

const MAX_PER_RECEIVE = 10;
const RETRY_PAUSE_MS = 1000;
/** What the local consumer reports to handlers that budget their work by remaining time. */
const INVOCATION_TIMEOUT_MS = 60_000;

export function startQueuePoller(options: QueuePollerOptions): QueuePoller {
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? 10));
  const waitTimeSeconds = Math.min(20, Math.max(0, Math.floor(options.waitTimeSeconds ?? 20)));
  const onError = options.onError ?? ((error: unknown) => console.error(`[queue-poller] ${options.queueUrl}:`, error));
  const queueName = options.queueUrl.split('/').filter(Boolean).at(-1) ?? 'queue';
  const functionName = `local-${queueName}-consumer`;

  let stopped = false;
  // Aborting this ends the in-flight long poll or pause; handlers are never aborted mid-run.
  const stopSignal = new AbortController();

  const receive = (maxNumberOfMessages: number, wait: number) =>
    options.client.send(
      new ReceiveMessageCommand({
        QueueUrl: options.queueUrl,
        MaxNumberOfMessages: maxNumberOfMessages,
        WaitTimeSeconds: wait,
        MessageSystemAttributeNames: ['All'],
        MessageAttributeNames: ['All'],
      }),
      { abortSignal: stopSignal.signal },
    );

  /** One long poll, then quick receives to fill batches larger than SQS's 10 per receive. */
  const receiveBatch = async (): Promise<Message[]> => {
    const first = await receive(Math.min(batchSize, MAX_PER_RECEIVE), waitTimeSeconds);
    const messages = first.Messages ?? [];
    while (!stopped && messages.length < batchSize && messages.length % MAX_PER_RECEIVE === 0 && messages.length > 0) {
      const more = (await receive(Math.min(batchSize - messages.length, MAX_PER_RECEIVE), 0)).Messages ?? [];
      if (more.length === 0) break;
      messages.push(...more);
    }
    return messages;
  };

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        stopSignal.signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      stopSignal.signal.addEventListener('abort', done, { once: true });
    });

  const resolveSource = async (): Promise<{ arn: string; region: string }> => {
    const region = await options.client.config.region();
    if (options.queueArn) return { arn: options.queueArn, region };
    try {
      const { Attributes } = await options.client.send(
        new GetQueueAttributesCommand({ QueueUrl: options.queueUrl, AttributeNames: ['QueueArn'] }),
        { abortSignal: stopSignal.signal },
      );
      if (Attributes?.QueueArn) return { arn: Attributes.QueueArn, region };
    } catch (error) {
      if (stopped) throw error;
      onError(error);
    }
    // The URL carries account and name, which is all an ARN needs besides the region.
    const parts = new URL(options.queueUrl).pathname.split('/').filter(Boolean);
    return { arn: `arn:aws:sqs:${region}:${parts.at(-2) ?? '000000000000'}:${queueName}`, region };
  };

  const dispatch = async (messages: Message[], source: { arn: string; region: string }) => {
    const records = messages.map((message) => toRecord(message, source));
    const deadline = Date.now() + INVOCATION_TIMEOUT_MS;
    const context = makeContext(functionName, source.region, deadline);

    let failedIds: Set<string>;
    try {
      const result = await options.handler({ Records: records }, context);
      failedIds = failuresFrom(result, records);
    } catch (error) {
      onError(error);
      return;
    }

    const toDelete = records.filter((record) => !failedIds.has(record.messageId));
    for (let start = 0; start < toDelete.length; start += MAX_PER_RECEIVE) {
      const chunk = toDelete.slice(start, start + MAX_PER_RECEIVE);
      try {
        // Not tied to stop(): work the handler finished must not be redelivered just because we are stopping.
        const result = await options.client.send(
          new DeleteMessageBatchCommand({
            QueueUrl: options.queueUrl,
            Entries: chunk.map((record, index) => ({ Id: String(index), ReceiptHandle: record.receiptHandle })),
          }),
        );
        if (result.Failed && result.Failed.length > 0) {
          onError(new Error(`Could not delete ${result.Failed.length} processed message(s): ${JSON.stringify(result.Failed)}`));
        }
      } catch (error) {
        onError(error);
      }
    }
  };

  const loop = (async () => {
    let source: { arn: string; region: string } | undefined;
    while (!stopped) {
      try {
        source ??= await resolveSource();
        const messages = await receiveBatch();
        if (messages.length > 0) await dispatch(messages, source);
      } catch (error) {
        if (stopped) break;
        onError(error);
        await pause(RETRY_PAUSE_MS);
      }
    }
  })();

  let stopping: Promise<void> | undefined;
  return {
    stop() {
      stopping ??= (async () => {
        stopped = true;
        stopSignal.abort();
        await loop;
      })();
      return stopping;
    },
  };
}

function toRecord(message: Message, source: { arn: string; region: string }): SQSRecord {
  const attributes = message.Attributes ?? {};
  const messageAttributes: SQSMessageAttributes = {};
  for (const [name, value] of Object.entries(message.MessageAttributes ?? {})) {
    // Lambda always includes both list fields, empty, and gives binary values as base64.
    messageAttributes[name] = {
      ...(value.StringValue !== undefined ? { stringValue: value.StringValue } : {}),
      ...(value.BinaryValue !== undefined ? { binaryValue: Buffer.from(value.BinaryValue).toString('base64') } : {}),
      stringListValues: value.StringListValues ?? [],
      binaryListValues: (value.BinaryListValues ?? []).map((item) => Buffer.from(item).toString('base64')),
      dataType: value.DataType ?? 'String',
    };
  }
  return {
    messageId: message.MessageId ?? '',
    receiptHandle: message.ReceiptHandle ?? '',
    body: message.Body ?? '',
    attributes: {
      ApproximateReceiveCount: attributes.ApproximateReceiveCount ?? '1',
      SentTimestamp: attributes.SentTimestamp ?? String(Date.now()),
      SenderId: attributes.SenderId ?? '',
      ApproximateFirstReceiveTimestamp: attributes.ApproximateFirstReceiveTimestamp ?? attributes.SentTimestamp ?? String(Date.now()),
      ...(attributes.AWSTraceHeader ? { AWSTraceHeader: attributes.AWSTraceHeader } : {}),
      ...(attributes.DeadLetterQueueSourceArn ? { DeadLetterQueueSourceArn: attributes.DeadLetterQueueSourceArn } : {}),
    },
    messageAttributes,
    md5OfBody: message.MD5OfBody ?? '',
    ...(message.MD5OfMessageAttributes ? { md5OfMessageAttributes: message.MD5OfMessageAttributes } : {}),
    eventSource: 'aws:sqs',
    eventSourceARN: source.arn,
    awsRegion: source.region,
  };
}

/**
 * The message ids to keep, read the way Lambda reads a batch response: nothing returned
 * or an empty list means all succeeded; an identifier that is missing, empty or not in
 * the batch makes Lambda treat the whole batch as failed.
 */
function failuresFrom(result: SQSBatchResponse | void, records: SQSRecord[]): Set<string> {
  const all = new Set(records.map((record) => record.messageId));
  if (result === undefined || result === null) return new Set();
  if (typeof result !== 'object') return all;
  const failures: unknown = (result as { batchItemFailures?: unknown }).batchItemFailures;
  if (failures === undefined || failures === null) return new Set();
  if (!Array.isArray(failures)) return all;
  const failed = new Set<string>();
  for (const failure of failures) {
    const id: unknown = (failure as { itemIdentifier?: unknown } | null)?.itemIdentifier;
    if (typeof id !== 'string' || !all.has(id)) return all;
    failed.add(id);
  }
  return failed;
}

function makeContext(functionName: string, region: string, deadline: number): Context {
  const awsRequestId = randomUUID();
  const unsupported = () => {
    throw new Error('Callback-style completion is not supported by the local queue poller; return a promise.');
  };
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${region}:000000000000:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: `local/[$LATEST]${awsRequestId.replaceAll('-', '')}`,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: unsupported,
    fail: unsupported,
    succeed: unsupported,
  };
}
