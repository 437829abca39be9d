/**
 * The local SQS server and queue poller, exercised through the real @aws-sdk/client-sqs,
 * so the SDK's own MD5 checks and error mapping are part of what is tested.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ChangeMessageVisibilityCommand,
  CreateQueueCommand,
  DeleteMessageBatchCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  ListQueuesCommand,
  QueueDoesNotExist,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startQueuePoller } from '../../infra/local/queue-poller.js';
import { md5OfMessageAttributes, startSqsServer } from '../../infra/local/sqs-server.js';

type Server = Awaited<ReturnType<typeof startSqsServer>>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function clientFor(endpoint: string): SQSClient {
  return new SQSClient({ region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, endpoint });
}

let server: Server;
let sqs: SQSClient;
let queueCounter = 0;

async function createQueue(attributes: Record<string, string> = {}, client: SQSClient = sqs): Promise<{ url: string; name: string }> {
  const name = `test-${process.pid}-${++queueCounter}`;
  const { QueueUrl } = await client.send(new CreateQueueCommand({ QueueName: name, Attributes: attributes }));
  return { url: QueueUrl!, name };
}

async function counts(queueUrl: string, client: SQSClient = sqs) {
  const { Attributes } = await client.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['All'] }));
  return { visible: Number(Attributes!.ApproximateNumberOfMessages), inFlight: Number(Attributes!.ApproximateNumberOfMessagesNotVisible) };
}

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(20);
  }
}

beforeAll(async () => {
  server = await startSqsServer({ port: 0 });
  sqs = clientFor(server.endpoint);
});

afterAll(async () => {
  sqs?.destroy();
  await server?.close();
});

describe('md5OfMessageAttributes', () => {
  // Reference digests published for the SQS message-attribute MD5 algorithm.
  it('matches the published digests for string, number and binary attributes', () => {
    const stringAttribute = { attribName1: { DataType: 'String', StringValue: 'attribValue 1' } };
    const numberAttribute = { customNumberTypeAttrib: { DataType: 'Number.float', StringValue: '4563442423554324324264524243.32543234' } };
    const binaryAttribute = { binaryAttribute: { DataType: 'Binary', BinaryValue: Buffer.from('Hello binary world!').toString('base64') } };
    expect(md5OfMessageAttributes(stringAttribute)).toBe('19e27d4e946b072f3f58da80d94fd778');
    expect(md5OfMessageAttributes(numberAttribute)).toBe('9fe1b90bbd9965bdf77bac517c7d2495');
    expect(md5OfMessageAttributes(binaryAttribute)).toBe('31a92b15d92f8db860eda32aceb656c3');
    expect(md5OfMessageAttributes({ ...stringAttribute, ...numberAttribute, ...binaryAttribute })).toBe('c932db14a896c663f83c260297d594ff');
  });
});

describe('SQS server', () => {
  it('round-trips a message with attributes through send, receive and delete, passing the SDK MD5 checks', async () => {
    const { url, name } = await createQueue();
    expect(url).toBe(`${server.endpoint}/000000000000/${name}`);

    const body = JSON.stringify({ policyId: 'P-1', note: 'unicode ✓ é' });
    const sent = await sqs.send(
      new SendMessageCommand({
        QueueUrl: url,
        MessageBody: body,
        MessageAttributes: {
          kind: { DataType: 'String', StringValue: 'issued' },
          blob: { DataType: 'Binary', BinaryValue: new Uint8Array([1, 2, 3]) },
        },
      }),
    );
    expect(sent.MessageId).toBeTruthy();

    const received = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: url, MessageSystemAttributeNames: ['All'], MessageAttributeNames: ['All'] }),
    );
    expect(received.Messages).toHaveLength(1);
    const [message] = received.Messages!;
    expect(message!.MessageId).toBe(sent.MessageId);
    expect(message!.Body).toBe(body);
    expect(message!.Attributes?.ApproximateReceiveCount).toBe('1');
    expect(Number(message!.Attributes?.SentTimestamp)).toBeGreaterThan(Date.now() - 10_000);
    expect(message!.Attributes?.ApproximateFirstReceiveTimestamp).toBeDefined();
    expect(message!.MessageAttributes?.kind?.StringValue).toBe('issued');
    expect([...message!.MessageAttributes!.blob!.BinaryValue!]).toEqual([1, 2, 3]);
    expect(message!.MD5OfMessageAttributes).toBe(sent.MD5OfMessageAttributes);
    expect(await counts(url)).toEqual({ visible: 0, inFlight: 1 });

    await sqs.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: message!.ReceiptHandle }));
    expect(await counts(url)).toEqual({ visible: 0, inFlight: 0 });
    const listed = await sqs.send(new ListQueuesCommand({ QueueNamePrefix: name }));
    expect(listed.QueueUrls).toEqual([url]);
  });

  it('sends and deletes in batches, reporting a malformed receipt handle as a per-entry failure', async () => {
    const { url } = await createQueue();
    const sent = await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: url,
        Entries: ['a', 'b', 'c'].map((id) => ({ Id: id, MessageBody: `body-${id}` })),
      }),
    );
    expect(sent.Successful?.map((entry) => entry.Id)).toEqual(['a', 'b', 'c']);
    expect(sent.Failed ?? []).toEqual([]);

    const received = await sqs.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10 }));
    expect(received.Messages?.map((message) => message.Body).sort()).toEqual(['body-a', 'body-b', 'body-c']);

    const deleted = await sqs.send(
      new DeleteMessageBatchCommand({
        QueueUrl: url,
        Entries: [
          ...received.Messages!.map((message, index) => ({ Id: `m${index}`, ReceiptHandle: message.ReceiptHandle })),
          { Id: 'bad', ReceiptHandle: 'not a handle!' },
        ],
      }),
    );
    expect(deleted.Successful?.map((entry) => entry.Id)).toEqual(['m0', 'm1', 'm2']);
    expect(deleted.Failed).toEqual([expect.objectContaining({ Id: 'bad', Code: 'ReceiptHandleIsInvalid', SenderFault: true })]);
    expect(await counts(url)).toEqual({ visible: 0, inFlight: 0 });
  });

  it('redelivers an undeleted message after its visibility timeout, and ignores deletes with the outdated handle', async () => {
    const { url } = await createQueue({ VisibilityTimeout: '1' });
    await sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'retry me' }));

    const first = await sqs.send(new ReceiveMessageCommand({ QueueUrl: url, MessageSystemAttributeNames: ['All'] }));
    expect(first.Messages?.[0]?.Attributes?.ApproximateReceiveCount).toBe('1');
    const hidden = await sqs.send(new ReceiveMessageCommand({ QueueUrl: url }));
    expect(hidden.Messages).toBeUndefined();

    // The long poll wakes when the message becomes visible again, not at the end of its 20 s wait (the test's own limit is far shorter).
    const second = await sqs.send(new ReceiveMessageCommand({ QueueUrl: url, WaitTimeSeconds: 20, MessageSystemAttributeNames: ['All'] }));
    expect(second.Messages?.[0]?.Attributes?.ApproximateReceiveCount).toBe('2');
    expect(second.Messages?.[0]?.ReceiptHandle).not.toBe(first.Messages?.[0]?.ReceiptHandle);

    await sqs.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: first.Messages![0]!.ReceiptHandle }));
    expect(await counts(url)).toEqual({ visible: 0, inFlight: 1 });
    await expect(
      sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl: url, ReceiptHandle: first.Messages![0]!.ReceiptHandle, VisibilityTimeout: 5 })),
    ).rejects.toMatchObject({ name: 'MessageNotInflight' });

    await sqs.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: second.Messages![0]!.ReceiptHandle }));
    expect(await counts(url)).toEqual({ visible: 0, inFlight: 0 });
  }, 12_000);

  it('moves a message to the dead-letter queue once a receive would exceed maxReceiveCount', async () => {
    const dlq = await createQueue();
    const dlqArn = `arn:aws:sqs:us-east-1:000000000000:${dlq.name}`;
    const source = await createQueue({ RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: 2 }) });
    const { Attributes } = await sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: source.url, AttributeNames: ['RedrivePolicy', 'QueueArn'] }),
    );
    expect(JSON.parse(Attributes!.RedrivePolicy!)).toEqual({ deadLetterTargetArn: dlqArn, maxReceiveCount: 2 });
    await sqs.send(new SendMessageCommand({ QueueUrl: source.url, MessageBody: 'poison' }));

    // A zero visibility timeout makes each failed attempt immediately visible again.
    for (const expectedCount of ['1', '2']) {
      const attempt = await sqs.send(
        new ReceiveMessageCommand({ QueueUrl: source.url, VisibilityTimeout: 0, MessageSystemAttributeNames: ['ApproximateReceiveCount'] }),
      );
      expect(attempt.Messages?.[0]?.Attributes?.ApproximateReceiveCount).toBe(expectedCount);
    }
    const third = await sqs.send(new ReceiveMessageCommand({ QueueUrl: source.url }));
    expect(third.Messages).toBeUndefined();
    expect(await counts(source.url)).toEqual({ visible: 0, inFlight: 0 });

    const dead = await sqs.send(new ReceiveMessageCommand({ QueueUrl: dlq.url, MessageSystemAttributeNames: ['All'] }));
    expect(dead.Messages?.[0]?.Body).toBe('poison');
    expect(dead.Messages?.[0]?.Attributes?.DeadLetterQueueSourceArn).toBe(Attributes!.QueueArn);
  });

  it('ends a long poll as soon as a message arrives', async () => {
    const { url } = await createQueue();
    // Waiting 20 s at most: answered at once, well inside the test's own limit.
    const polling = sqs.send(new ReceiveMessageCommand({ QueueUrl: url, WaitTimeSeconds: 20 }));
    await sleep(200);
    await sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'wake up' }));
    const result = await polling;
    expect(result.Messages?.[0]?.Body).toBe('wake up');
  }, 12_000);

  it('surfaces an unknown queue as the SDK QueueDoesNotExist error, on the wire as AWS sends it', async () => {
    const missing = `${server.endpoint}/000000000000/no-such-queue`;
    const error = await sqs.send(new SendMessageCommand({ QueueUrl: missing, MessageBody: 'x' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QueueDoesNotExist);
    expect(error).toMatchObject({ name: 'QueueDoesNotExist', $metadata: { httpStatusCode: 400 } });
    await expect(sqs.send(new GetQueueUrlCommand({ QueueName: 'no-such-queue' }))).rejects.toMatchObject({ name: 'QueueDoesNotExist' });

    const response = await fetch(server.endpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-amz-json-1.0', 'X-Amz-Target': 'AmazonSQS.GetQueueUrl' },
      body: JSON.stringify({ QueueName: 'no-such-queue' }),
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('x-amzn-query-error')).toBe('AWS.SimpleQueueService.NonExistentQueue;Sender');
    expect(await response.json()).toEqual({ __type: 'com.amazonaws.sqs#QueueDoesNotExist', message: expect.any(String) });
  });

  it('rejects malformed receipt handles and treats CreateQueue as idempotent only for matching attributes', async () => {
    const { url, name } = await createQueue({ VisibilityTimeout: '45' });
    await expect(sqs.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: '%%%' }))).rejects.toMatchObject({
      name: 'ReceiptHandleIsInvalid',
    });
    const again = await sqs.send(new CreateQueueCommand({ QueueName: name, Attributes: { VisibilityTimeout: '45' } }));
    expect(again.QueueUrl).toBe(url);
    await expect(sqs.send(new CreateQueueCommand({ QueueName: name, Attributes: { VisibilityTimeout: '60' } }))).rejects.toMatchObject({
      name: 'QueueNameExists',
    });
  });

  it('keeps queues and messages, including in-flight ones, across a restart with a data file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sqs-server-test-'));
    const dataFile = join(dir, 'nested', 'sqs.json');
    try {
      const first = await startSqsServer({ dataFile });
      const firstClient = clientFor(first.endpoint);
      const { url, name } = await createQueue({ VisibilityTimeout: '30' }, firstClient);
      await firstClient.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'one' }));
      await firstClient.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'two' }));
      const taken = await firstClient.send(new ReceiveMessageCommand({ QueueUrl: url }));
      expect(taken.Messages?.[0]?.Body).toBe('one');
      firstClient.destroy();
      await first.close();

      const second = await startSqsServer({ dataFile });
      const secondClient = clientFor(second.endpoint);
      try {
        const { QueueUrl } = await secondClient.send(new GetQueueUrlCommand({ QueueName: name }));
        expect(await counts(QueueUrl!, secondClient)).toEqual({ visible: 1, inFlight: 1 });
        const next = await secondClient.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10 }));
        expect(next.Messages?.map((message) => message.Body)).toEqual(['two']);
        // The handle from before the restart still deletes its message.
        await secondClient.send(new DeleteMessageCommand({ QueueUrl, ReceiptHandle: taken.Messages![0]!.ReceiptHandle }));
        expect(await counts(QueueUrl!, secondClient)).toEqual({ visible: 0, inFlight: 1 });
      } finally {
        secondClient.destroy();
        await second.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('answers pending long polls with no messages when it closes', async () => {
    const other = await startSqsServer();
    const client = clientFor(other.endpoint);
    try {
      const { url } = await createQueue({}, client);
      const polling = client.send(new ReceiveMessageCommand({ QueueUrl: url, WaitTimeSeconds: 20 }));
      await sleep(100);
      await other.close();
      const result = await polling;
      expect(result.Messages).toBeUndefined();
    } finally {
      client.destroy();
      await other.close();
    }
  }, 12_000);
});

describe('queue poller', () => {
  it('deletes only the records the handler did not report as failed, and the failed one comes back', async () => {
    const { url, name } = await createQueue({ VisibilityTimeout: '1' });
    await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: url,
        Entries: ['ok-1', 'fail', 'ok-2'].map((body, index) => ({
          Id: String(index),
          MessageBody: body,
          MessageAttributes: { source: { DataType: 'String', StringValue: 'test' } },
        })),
      }),
    );

    const batches: SQSEvent[] = [];
    const poller = startQueuePoller({
      client: sqs,
      queueUrl: url,
      waitTimeSeconds: 1,
      onError: (error) => {
        throw error;
      },
      handler: async (event): Promise<SQSBatchResponse> => {
        batches.push(event);
        const failing = event.Records.filter((record) => record.body === 'fail' && record.attributes.ApproximateReceiveCount === '1');
        return { batchItemFailures: failing.map((record) => ({ itemIdentifier: record.messageId })) };
      },
    });
    try {
      await waitUntil(() => batches.length >= 2, 4000);
    } finally {
      await poller.stop();
    }

    const [first, second] = batches;
    expect(first!.Records.map((record) => record.body)).toEqual(['ok-1', 'fail', 'ok-2']);
    expect(second!.Records.map((record) => [record.body, record.attributes.ApproximateReceiveCount])).toEqual([['fail', '2']]);
    const record = first!.Records[0]!;
    expect(record).toMatchObject({
      eventSource: 'aws:sqs',
      eventSourceARN: `arn:aws:sqs:us-east-1:000000000000:${name}`,
      awsRegion: 'us-east-1',
      md5OfBody: createHash('md5').update('ok-1').digest('hex'),
      messageAttributes: { source: { stringValue: 'test', stringListValues: [], binaryListValues: [], dataType: 'String' } },
    });
    expect(Object.keys(record.attributes)).toEqual(
      expect.arrayContaining(['ApproximateReceiveCount', 'SentTimestamp', 'SenderId', 'ApproximateFirstReceiveTimestamp']),
    );
    expect(await counts(url)).toEqual({ visible: 0, inFlight: 0 });
  });

  it('deletes nothing when the handler throws, so the batch redrives to the dead-letter queue', async () => {
    const dlq = await createQueue();
    const { url } = await createQueue({
      VisibilityTimeout: '1',
      RedrivePolicy: JSON.stringify({ deadLetterTargetArn: `arn:aws:sqs:us-east-1:000000000000:${dlq.name}`, maxReceiveCount: 1 }),
    });
    await sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'always fails' }));

    const errors: unknown[] = [];
    const poller = startQueuePoller({
      client: sqs,
      queueUrl: url,
      queueArn: 'arn:aws:sqs:us-east-1:000000000000:given',
      waitTimeSeconds: 1,
      onError: (error) => errors.push(error),
      handler: async () => {
        throw new Error('handler failed');
      },
    });
    try {
      await waitUntil(() => errors.length >= 1, 2000);
      expect(await counts(url)).toEqual({ visible: 0, inFlight: 1 });
      const dead = await sqs.send(new ReceiveMessageCommand({ QueueUrl: dlq.url, WaitTimeSeconds: 3 }));
      expect(dead.Messages?.[0]?.Body).toBe('always fails');
    } finally {
      await poller.stop();
    }
    expect(errors).toEqual([expect.objectContaining({ message: 'handler failed' })]);
  });

  it('stops promptly by aborting its in-flight long poll', async () => {
    const { url } = await createQueue();
    const poller = startQueuePoller({ client: sqs, queueUrl: url, waitTimeSeconds: 20, handler: async () => undefined });
    await sleep(200);
    // Its long poll waits 20 s: stopping must not wait for it (the test's own limit is far shorter).
    await poller.stop();

    // The aborted poll must not have swallowed a message sent afterwards.
    await sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'after stop' }));
    const result = await sqs.send(new ReceiveMessageCommand({ QueueUrl: url }));
    expect(result.Messages?.[0]?.Body).toBe('after stop');
  }, 12_000);
});
