import { fileURLToPath } from 'node:url';
import { GetQueueAttributesCommand, SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';

const eventsDir = fileURLToPath(new URL('./fixtures/events', import.meta.url));
const consumed = () => ((globalThis as { __consumed?: SQSEvent['Records'] }).__consumed ??= []);

let service: TestService;
let sqs: SQSClient;

beforeAll(async () => {
  service = await startTestService({ consumers: true, eventsDir });
  sqs = new SQSClient({});
});

afterAll(async () => {
  sqs?.destroy();
  await service?.stop();
});

async function until<T>(read: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('gave up waiting');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('queue consumers on the local platform', () => {
  it('drives events/queues/<queue>/<consumer>.ts with SQS events, deleting what succeeded and keeping what failed', async () => {
    const queueUrl = process.env.SIGNATURE_EVENTS_QUEUE_URL!;
    await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: [
          { Id: 'signed', MessageBody: JSON.stringify({ event_type: 'signed' }) },
          { Id: 'poison', MessageBody: 'fail' },
        ],
      }),
    );
    const records = await until(() => (consumed().length >= 2 ? consumed() : undefined));
    expect(records.map((record) => record.body).sort()).toEqual(['fail', JSON.stringify({ event_type: 'signed' })].sort());
    expect(records[0]).toMatchObject({ eventSource: 'aws:sqs', eventSourceARN: expect.stringContaining('signature-events') });

    // The success is deleted; the reported failure stays in flight until its visibility timeout.
    const inFlight = async () =>
      (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] })))
        .Attributes;
    let attributes = await inFlight();
    for (let tries = 0; attributes?.ApproximateNumberOfMessagesNotVisible !== '1' && tries < 50; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      attributes = await inFlight();
    }
    expect(attributes).toMatchObject({ ApproximateNumberOfMessages: '0', ApproximateNumberOfMessagesNotVisible: '1' });
  });
});
