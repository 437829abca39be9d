/**
 * The one way to send to one of the service's queues, one message or many: ten to a SendMessageBatch call (SQS's
 * limit), several calls at once; a message may be held back by its own delay (at most SQS's 900 s). A message the queue refuses fails the whole send, naming what
 * was refused: the callers (a nightly planner, a lockbox file) record what they sent and are
 * retried whole.
 */
import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { sqsClient } from './clients.js';
import { mapLimited } from './concurrency.js';
import { config } from './config.js';
import type { QueueName } from './queues.js';

const ENTRIES_PER_CALL = 10;
const CALLS_AT_ONCE = 8;

export async function sendInBatches(queue: QueueName, messages: ReadonlyArray<{ id: string; body: unknown; delaySeconds?: number }>, what: string): Promise<void> {
  const queueUrl = config.queueUrl(queue);
  const calls: Array<typeof messages> = [];
  for (let start = 0; start < messages.length; start += ENTRIES_PER_CALL) calls.push(messages.slice(start, start + ENTRIES_PER_CALL));
  await mapLimited(calls, CALLS_AT_ONCE, async (entries) => {
    const result = await sqsClient().send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries.map((message) => ({ Id: message.id, MessageBody: JSON.stringify(message.body), ...(message.delaySeconds !== undefined ? { DelaySeconds: message.delaySeconds } : {}) })) }));
    if (result.Failed?.length) throw new Error(`The ${queue} queue refused ${result.Failed.length} of ${what}`);
  });
}
