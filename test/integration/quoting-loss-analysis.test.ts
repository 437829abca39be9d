/**
 * async_request_loss_analysis and its consumer: the job is queued on SQS, the consumer in
 * events/queues/loss-analysis/ runs it and retrieve_revision_details shows the result.
 * Delivered twice, a job is applied once; a poison message is reported as that record's
 * failure alone (SQS then moves it to the dead-letter queue after 5 receives).
 */
import { DeleteMessageCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler } from '../../events/queues/loss-analysis/run_analysis.js';
import { todayIso } from '../../shared/platform/dates.js';
import { runLossAnalysisJob } from '../../shared/review/loss-analysis-service.js';
import { builtInLossReport, type LossAnalysisVendor } from '../../shared/underwriting/loss-analysis.js';
import { UNDERWRITING_QUESTION } from '../support/reference-product.js';
import { startTestService, successData as ok, type TestService } from '../support/service.js';

const P = '/api/v2/policies';
let service: TestService;
let sqs: SQSClient;

const usDate = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;

async function quotedRevision(): Promise<string> {
  const quote = ok(
    await service.call(`${P}/create_quote`, {
      quote_info: {
        effective_date: usDate(todayIso()),
        line_name: 'Homeowners',
        policy_type_name: 'Homeowner - HO3',
        underwriting_questions: [{ questionId: UNDERWRITING_QUESTION.LOSSES_IN_PAST_3_YEARS, yesNoAnswer: 'no' }],
        named_insured: 'Lee Analysed',
        locations: [{ address_line1: '9 Harbor Rd', address_city: 'New York', address_state: 'NY', address_zip: '10001', year_built: '1930' }],
        items: [{ name: 'Dwelling', limit: 250000, questions: { 'Construction Type': 'Frame', 'Protection Class': '9' } }],
      },
    }),
  );
  return ok(await service.call(`${P}/retrieve_policy`, { policy_number: quote.quote_number })).active_revision.id;
}

/** The jobs' messages as SQS hands them to a consumer (received from the real queue, not made up), by job id. */
async function receiveJobs(...jobIds: string[]): Promise<Map<string, SQSRecord>> {
  const queueUrl = process.env.LOSS_ANALYSIS_QUEUE_URL!;
  const found = new Map<string, SQSRecord>();
  for (let tries = 0; tries < 20 && found.size < jobIds.length; tries += 1) {
    const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
    for (const message of Messages) {
      await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle }));
      const jobId = JSON.parse(message.Body!).job_id;
      if (jobIds.includes(jobId)) found.set(jobId, record(message.MessageId!, message.Body!));
    }
  }
  if (found.size < jobIds.length) throw new Error(`jobs ${jobIds.join(', ')} were not all queued`);
  return found;
}

const receiveJob = async (jobId: string) => (await receiveJobs(jobId)).get(jobId)!;

function record(messageId: string, body: string): SQSRecord {
  return {
    messageId,
    receiptHandle: `handle-${messageId}`,
    body,
    attributes: { ApproximateReceiveCount: '1', SentTimestamp: String(Date.now()), SenderId: 'test', ApproximateFirstReceiveTimestamp: String(Date.now()) },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:loss-analysis',
    awsRegion: 'us-east-1',
  };
}

const context = { functionName: 'loss-analysis', awsRequestId: 'test', getRemainingTimeInMillis: () => 60_000 } as unknown as Context;
const deliver = (...records: SQSRecord[]) => handler({ Records: records } as SQSEvent, context);
const analysisOf = async (revisionId: string) => ok(await service.call(`${P}/retrieve_revision_details`, { revision_id: revisionId })).loss_analysis;

beforeAll(async () => {
  service = await startTestService();
  sqs = new SQSClient({});
});
afterAll(async () => {
  sqs?.destroy();
  await service?.stop();
});

describe('async_request_loss_analysis', () => {
  it('answers a job id at once and shows the job as requested on the revision', async () => {
    const revisionId = await quotedRevision();
    const { job_id } = ok(await service.call(`${P}/async_request_loss_analysis`, { revision_id: revisionId }));
    expect(job_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await analysisOf(revisionId)).toMatchObject({ job_id, status: 'requested', completed_at: null, result: null });
    await receiveJob(job_id);
  });

  it('a job delivered twice (even in one batch) is applied once; a poison message fails alone', async () => {
    const revisionId = await quotedRevision();
    const { job_id } = ok(await service.call(`${P}/async_request_loss_analysis`, { revision_id: revisionId }));
    const job = await receiveJob(job_id);
    const duplicate = { ...job, messageId: `${job.messageId}-again` };
    const poison = record('poison', 'not a job');
    const invalid = record('invalid', JSON.stringify({ job_id: 'x', revision_id: revisionId }));

    expect(await deliver(job, duplicate, poison, invalid)).toEqual({ batchItemFailures: [{ itemIdentifier: 'poison' }, { itemIdentifier: 'invalid' }] });
    const first = await analysisOf(revisionId);
    // The property: Frame (2) + protection class 9 (3) + built 1930 (2) = 7 risk points: referred.
    expect(first).toMatchObject({ job_id, status: 'completed', result: { referral: true } });
    expect(first.result.summary).toContain('risk score 5 or more at Property #1');

    // Delivered again later: nothing changes, and the delivery succeeds so SQS forgets it.
    expect(await deliver(job)).toEqual({ batchItemFailures: [] });
    expect(await analysisOf(revisionId)).toEqual(first);
  });

  it('runs the vendor once for a job however often it is run, and ignores a job a newer request superseded', async () => {
    const revisionId = await quotedRevision();
    const calls: string[] = [];
    const counting: LossAnalysisVendor = { name: 'counting', analyse: async (request) => (calls.push('call'), builtInLossReport(request)) };
    const older = ok(await service.call(`${P}/async_request_loss_analysis`, { revision_id: revisionId })).job_id;
    const newer = ok(await service.call(`${P}/async_request_loss_analysis`, { revision_id: revisionId })).job_id;
    expect(await runLossAnalysisJob({ job_id: older, revision_id: revisionId }, counting)).toBe('superseded');
    expect(await runLossAnalysisJob({ job_id: newer, revision_id: revisionId }, counting)).toBe('recorded');
    expect(await runLossAnalysisJob({ job_id: newer, revision_id: revisionId }, counting)).toBe('already-recorded');
    expect(calls).toHaveLength(1);
    expect(await analysisOf(revisionId)).toMatchObject({ job_id: newer, status: 'completed' });
    expect((await receiveJobs(older, newer)).size).toBe(2);
  });

  it('refuses an unknown revision and queues nothing', async () => {
    const answer = await service.call(`${P}/async_request_loss_analysis`, { revision_id: crypto.randomUUID() });
    expect(answer.body.success).toBe(false);
  });
});

describe('the loss-analysis consumer on the local platform', () => {
  it('runs a queued job through the queue poller, and retrieve_revision_details shows the result', async () => {
    const withConsumers = await startTestService({ consumers: true });
    try {
      const call = withConsumers.call;
      const quote = ok(
        await call(`${P}/create_quote`, {
          quote_info: {
            effective_date: usDate(todayIso()),
            line_name: 'Homeowners',
            policy_type_name: 'Homeowner - HO3',
            named_insured: 'Quinn Queued',
            locations: [{ address_line1: '4 Brick Ln', address_city: 'New York', address_state: 'NY', address_zip: '10001', year_built: '2001' }],
            items: [{ name: 'Dwelling', limit: 250000, questions: { 'Construction Type': 'Superior', 'Protection Class': '2' } }],
          },
        }),
      );
      const revisionId = ok(await call(`${P}/retrieve_policy`, { policy_number: quote.quote_number })).active_revision.id;
      const { job_id } = ok(await call(`${P}/async_request_loss_analysis`, { revision_id: revisionId }));
      let analysis;
      for (let tries = 0; tries < 150; tries += 1) {
        analysis = ok(await call(`${P}/retrieve_revision_details`, { revision_id: revisionId })).loss_analysis;
        if (analysis.status === 'completed') break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(analysis).toMatchObject({ job_id, status: 'completed', result: { summary: expect.stringContaining('1 property checked') } });
    } finally {
      await withConsumers.stop();
    }
  });
});
