/**
 * defineConsumer (shared/platform/consumer.ts): each record of a batch stands alone. A
 * malformed record is reported failed by its id (so SQS retries it and then dead-letters
 * it) while the good records of the same batch are handled and not reported.
 */
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { defineConsumer, MalformedMessageError, messageOf } from '../../shared/platform/consumer.js';
import { QUEUE_NAMES, QUEUES } from '../../shared/platform/queues.js';

process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';

const record = (messageId: string, body: string): SQSRecord =>
  ({ messageId, body, receiptHandle: messageId, attributes: { ApproximateReceiveCount: '1' }, messageAttributes: {}, md5OfBody: '', eventSource: 'aws:sqs', eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:print-batches', awsRegion: 'us-east-1' }) as unknown as SQSRecord;
const context = { functionName: 'test', awsRequestId: 'test', getRemainingTimeInMillis: () => 60_000 } as unknown as Context;
const batch = (...records: SQSRecord[]): SQSEvent => ({ Records: records });

function printConsumer() {
  const handled: string[] = [];
  const handler = defineConsumer({
    queue: 'print-batches',
    message: z.object({ printDate: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/)) }),
    resources: { table: 'write' },
    handle: async ({ printDate }) => {
      if (printDate === '2026-01-01') throw new Error('the store is down');
      handled.push(printDate);
    },
  });
  return { handler, handled };
}

describe('a consumer written with defineConsumer', () => {
  it('reports a malformed message alone as failed and handles the good one of the same batch', async () => {
    const { handler, handled } = printConsumer();
    const answer = await handler(batch(record('good', '{"printDate":"2026-07-06"}'), record('not-json', 'fail{'), record('wrong-shape', '{"printDate":7}')), context);
    expect(answer.batchItemFailures.map((failure) => failure.itemIdentifier).sort()).toEqual(['not-json', 'wrong-shape']);
    expect(handled).toEqual(['2026-07-06']);
  });

  it('reports a message whose handling fails alone, so it is retried and then dead-lettered', async () => {
    const { handler, handled } = printConsumer();
    const answer = await handler(batch(record('fails', '{"printDate":"2026-01-01"}'), record('good', '{"printDate":"2026-07-07"}')), context);
    expect(answer.batchItemFailures).toEqual([{ itemIdentifier: 'fails' }]);
    expect(handled).toEqual(['2026-07-07']);
  });

  it('builds a message schema given as a function on the first message, not when the consumer is defined, and only once', async () => {
    let builds = 0;
    const handled: string[] = [];
    const handler = defineConsumer({
      queue: 'print-batches',
      message: () => {
        builds += 1;
        return z.object({ printDate: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/)) });
      },
      resources: { table: 'write' },
      handle: async ({ printDate }) => {
        handled.push(printDate);
      },
    });
    expect(builds).toBe(0);
    const answer = await handler(batch(record('good', '{"printDate":"2026-07-06"}'), record('wrong-shape', '{"printDate":7}')), context);
    expect(answer.batchItemFailures).toEqual([{ itemIdentifier: 'wrong-shape' }]);
    expect(handled).toEqual(['2026-07-06']);
    await handler(batch(record('again', '{"printDate":"2026-07-07"}')), context);
    expect(builds).toBe(1);
  });

  it('reports every record of a batch that is all malformed, without throwing the batch away', async () => {
    const { handler } = printConsumer();
    const answer = await handler(batch(record('a', '[]'), record('b', 'null')), context);
    expect(answer.batchItemFailures).toHaveLength(2);
  });

  it('names the fields that are wrong, not their values', () => {
    const schema = z.object({ printDate: z.string() });
    expect(() => messageOf('print-batches', schema, { body: '{"printDate":12345}' })).toThrow(MalformedMessageError);
    try {
      messageOf('print-batches', schema, { body: '{"printDate":12345}' });
    } catch (error) {
      expect((error as MalformedMessageError).problems).toEqual([expect.stringMatching(/^printDate: /)]);
      expect((error as Error).message).not.toContain('12345');
    }
  });

  it('carries its queue and resources for the CDK app and the local runtime', () => {
    expect(printConsumer().handler.consumer).toEqual({ queue: 'print-batches', resources: { table: 'write' }, traced: false });
  });
});

describe('the queue table', () => {
  it('gives every queue a dead-letter queue after a few receives, a visibility timeout over a consumer run and a batch size Lambda accepts', () => {
    for (const name of QUEUE_NAMES) {
      const settings = QUEUES[name];
      expect(settings.maxReceiveCount, name).toBeGreaterThanOrEqual(3);
      expect(settings.visibilityTimeoutSeconds, name).toBeGreaterThanOrEqual(60);
      expect(settings.deadLetterRetentionDays, name).toBeGreaterThan(settings.retentionDays);
      expect(settings.batchSize, name).toBeGreaterThanOrEqual(1);
      expect(settings.batchSize, name).toBeLessThanOrEqual(10);
    }
  });
});
