/**
 * The consumer factory: what `defineOperation` is to functions/, `defineConsumer` is to
 * events/queues/. One call declares a consumer of one queue (a row of queues.ts): the
 * message's schema, what it touches, whether a repeated delivery must be kept from acting
 * twice, and what it does with one message.
 *
 * - Each record is handled on its own (Powertools batch, partial batch failure): a record that
 *   fails is reported alone, comes back after the queue's visibility timeout, and moves to the
 *   dead-letter queue after the queue's `maxReceiveCount`; the others of its batch succeed.
 * - A malformed record (not JSON, or not what the schema says) fails the same way, alone: it
 *   ends in the dead-letter queue where a person can read it. Its log line names the fields
 *   that were wrong, never their values.
 * - SQS delivers at least once. A consumer whose work is idempotent by construction says so by
 *   giving no `idempotency`; otherwise `idempotency.key` names what makes two deliveries the
 *   same, and the first outcome is stored (idempotency.ts, in the table: idempotency-dynamodb.ts)
 *   so a repeat does nothing again.
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { Logger } from '@aws-lambda-powertools/logger';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type * as z from 'zod/mini';
import { onceForKey } from './idempotency-dynamodb.js';
import { invocationDeadline } from './invocation.js';
import type { ResourceAccess } from './operation.js';
import type { QueueName } from './queues.js';
import type { Tracing } from './tracing.js';
import { schemaOnFirstUse } from './validation.js';
import { validate } from './validation-messages.js';

/** A record that is not a message of its queue: it fails every time, so it ends dead-lettered. */
export class MalformedMessageError extends Error {
  constructor(
    readonly queue: QueueName,
    readonly problems: string[],
  ) {
    super(`The message is not a ${queue} message: ${problems.join('; ')}`);
    this.name = 'MalformedMessageError';
  }
}

export type MessageSchema = z.core.$ZodType;

export interface ConsumerDefinition<Schema extends MessageSchema, Result> {
  queue: QueueName;
  /**
   * The message body (JSON), as a zod/mini schema, or (better) a function that builds it: then it
   * is built by the first message, not when the function's module loads (a cold start).
   */
  message: Schema | (() => Schema);
  /** What the consumer touches, as an operation declares it (the CDK app grants exactly this). */
  resources: ResourceAccess;
  /** For work that is not idempotent by itself: what makes two deliveries one. */
  idempotency?: {
    /** The records' partition (idempotency.ts): one per consumer. */
    scope: string;
    key: (message: z.core.output<Schema>) => string;
  };
  handle: (message: z.core.output<Schema>, record: SQSRecord) => Promise<Result>;
  /** X-Ray tracing of each batch and its AWS calls (shared/platform/tracing.ts moneyPathTracing): the money paths. */
  tracing?: Tracing;
  /** What to log of a handled message: ids and outcomes only, never a person's details. */
  logged?: (message: z.core.output<Schema>, result: Result) => Record<string, unknown>;
}

export interface ConsumerMetadata {
  queue: QueueName;
  resources: ResourceAccess;
  /** Traced with X-Ray: the CDK app turns the function's active tracing on. */
  traced: boolean;
}

export type ConsumerHandler = ((event: SQSEvent, context: Context) => Promise<SQSBatchResponse>) & { consumer: ConsumerMetadata };

/** The message of a record, or MalformedMessageError naming what is wrong with it. */
export function messageOf<Schema extends MessageSchema>(queue: QueueName, schema: Schema, record: Pick<SQSRecord, 'body'>): z.core.output<Schema> {
  let body: unknown;
  try {
    body = JSON.parse(record.body);
  } catch {
    throw new MalformedMessageError(queue, ['body: is not JSON']);
  }
  const parsed = validate(schema, body);
  if (!parsed.success) throw new MalformedMessageError(queue, parsed.messages);
  return parsed.data;
}

export function defineConsumer<Schema extends MessageSchema, Result>(definition: ConsumerDefinition<Schema, Result>): ConsumerHandler {
  const logger = new Logger({ serviceName: 'insurance-admin', persistentKeys: { queue: definition.queue } });
  const messageSchema = schemaOnFirstUse(definition.message);

  // The invocation's deadline bounds an idempotency mark: a consumer killed mid-message blocks its redelivery no longer.
  const handleRecord = (deadline: number) => async (record: SQSRecord): Promise<void> => {
    const receiveCount = record.attributes?.ApproximateReceiveCount;
    let message: z.core.output<Schema>;
    try {
      message = messageOf(definition.queue, messageSchema(), record);
    } catch (error) {
      if (error instanceof MalformedMessageError) logger.warn('malformed message', { messageId: record.messageId, receiveCount, problems: error.problems.map((problem) => problem.split(':')[0]) });
      throw error;
    }
    const { idempotency } = definition;
    let result: Result;
    try {
      result = idempotency
        ? await onceForKey(idempotency.scope, idempotency.key(message), message, () => definition.handle(message, record), { deadline })
        : await definition.handle(message, record);
    } catch (error) {
      // The error's name only: a message may quote what the record held.
      logger.error('message failed', { messageId: record.messageId, receiveCount, error: (error as Error | undefined)?.name ?? 'unknown' });
      throw error;
    }
    logger.info('message handled', { messageId: record.messageId, receiveCount, ...(definition.logged?.(message, result) ?? {}) });
  };

  // A processor per invocation: it holds the batch's state, and locally (or in tests) one
  // handler can be invoked again before the last invocation is done.
  const handler = async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> =>
    processPartialResponse(event, handleRecord(invocationDeadline(context)), new BatchProcessor(EventType.SQS), { context, throwOnFullBatchFailure: false });
  const invoked = definition.tracing ? definition.tracing.traced(handler) : handler;
  return Object.assign(invoked, { consumer: { queue: definition.queue, resources: definition.resources, traced: !!definition.tracing } });
}
