/**
 * What the signature tests share: a submitted (bound, not issued) policy with two named
 * insureds, webhooks signed as the vendor signs them, and the signature-events queue drained
 * through the real consumer (for tests that run without the background consumers).
 */
import { DeleteMessageBatchCommand, GetQueueAttributesCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { Context, SQSEvent } from 'aws-lambda';
import { todayIso } from '../../shared/platform/dates.js';
import { signWebhook } from '../../shared/signatures/webhook-signature.js';
import { UNDERWRITING_QUESTION } from './reference-product.js';
import { successData as ok, type TestService } from './service.js';

export const P = '/api/v2/policies';
export const CALLBACK = `${P}/application_signature_event_callback`;
export const SIGNERS = [
  { name: 'Jordan Avery', email: 'jordan.avery@example.com' },
  { name: 'Pat Avery', email: 'pat.avery@example.com' },
];

const usToday = () => {
  const iso = todayIso();
  return `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;
};

export async function submittedPolicy(service: TestService, options: { bind?: boolean } = {}): Promise<{ policyId: string; policyNumber: string }> {
  const data = ok(
    await service.call(`${P}/create_quote_extended`, {
      quote_info: {
        effective_date: usToday(),
        line_name: 'Homeowners',
        policy_type_name: 'Homeowner - HO3',
        named_insureds: SIGNERS.map((signer) => ({ name: signer.name, type: 'individual', emails: [{ email: signer.email, type: 'personal' }] })),
        underwriting_questions: [{ questionId: UNDERWRITING_QUESTION.LOSSES_IN_PAST_3_YEARS, yesNoAnswer: 'no' }],
        locations: [{ address_zip: '10001' }],
        items: [{ name: 'Dwelling', limit: 250000, questions: { 'Construction Type': 'Frame', 'Protection Class': '3' } }],
      },
    }),
  );
  if (options.bind ?? true) ok(await service.call(`${P}/bind`, { bind_info: { policy_id: data.policy_id } }));
  return { policyId: data.policy_id, policyNumber: data.quote_number };
}

/** POSTs a webhook as the vendor would: the raw body, signed with `secret` at `timestamp`. */
export async function postWebhook(service: TestService, event: Record<string, unknown>, options: { secret?: string; timestamp?: number; header?: string } = {}) {
  const body = JSON.stringify(event);
  const secret = options.secret ?? process.env.SIGNATURE_VENDOR_SECRET!.split(',')[0];
  const header = options.header ?? signWebhook(secret, body, options.timestamp ?? Math.floor(Date.now() / 1000));
  return service.call(CALLBACK, {}, { apiKey: null, rawBody: body, headers: { 'x-signature': header } });
}

export async function queuedCount(): Promise<number> {
  const sqs = new SQSClient({});
  try {
    const { Attributes } = await sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: process.env.SIGNATURE_EVENTS_QUEUE_URL!, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] }),
    );
    return Number(Attributes?.ApproximateNumberOfMessages ?? 0) + Number(Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0);
  } finally {
    sqs.destroy();
  }
}

/** Receives everything queued and hands it to the real consumer in one batch, as Lambda would. */
export async function drainSignatureEvents(): Promise<{ received: number; failed: number }> {
  const { handler } = await import('../../events/queues/signature-events/apply_signature_event.js');
  const sqs = new SQSClient({});
  const queueUrl = process.env.SIGNATURE_EVENTS_QUEUE_URL!;
  try {
    const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
    if (Messages.length === 0) return { received: 0, failed: 0 };
    const event: SQSEvent = {
      Records: Messages.map((message) => ({
        messageId: message.MessageId!,
        receiptHandle: message.ReceiptHandle!,
        body: message.Body ?? '',
        attributes: { ApproximateReceiveCount: '1', SentTimestamp: String(Date.now()), SenderId: 'test', ApproximateFirstReceiveTimestamp: String(Date.now()) },
        messageAttributes: {},
        md5OfBody: message.MD5OfBody ?? '',
        eventSource: 'aws:sqs',
        eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:signature-events',
        awsRegion: 'us-east-1',
      })),
    };
    const result = await handler(event, { getRemainingTimeInMillis: () => 60_000 } as Context);
    const failed = new Set(result.batchItemFailures.map((failure) => failure.itemIdentifier));
    const done = event.Records.filter((record) => !failed.has(record.messageId));
    if (done.length) {
      await sqs.send(new DeleteMessageBatchCommand({ QueueUrl: queueUrl, Entries: done.map((record, index) => ({ Id: String(index), ReceiptHandle: record.receiptHandle })) }));
    }
    return { received: Messages.length, failed: failed.size };
  } finally {
    sqs.destroy();
  }
}
