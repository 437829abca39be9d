/** What several bench scenarios do alike: one metered call as a row, names to fill a table with, a timed nightly run. */
import { startLocalWorkers } from '../../infra/local/service.js';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { startQueuePoller } from '../../infra/local/queue-poller.js';
import { config } from '../../shared/platform/config.js';
import { earnDay } from '../../shared/books/index.js';
import { clock } from '../../shared/platform/clock.js';
import { addDays } from '../../shared/platform/dates.js';
import { getNightlyRun } from '../../shared/platform/nightly-runs.js';
import type { QueueName } from '../../shared/platform/queues.js';
import type { BenchContext, BenchRow } from './types.js';

/** A nightly job as the bench runs it: its planner, and the consumer of its queue. */
export interface NightlyJob {
  job: string;
  queue: QueueName;
  consumer: (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;
  plan: (date: string) => Promise<{ runId: string; batches: number; accounts: number }>;
}

/**
 * Runs a nightly job for a day with `workers` consumers in parallel (Lambda would run many),
 * answering its seconds, and the two figures that say whether it fits Lambda at any size: how
 * long the planner (one invocation) took, and the longest consumer invocation (one batch of 10 messages).
 */
export async function timedNightlyRun(nightly: NightlyJob, date: string, workers: number): Promise<{ seconds: number; accounts: number; batches: number; planSeconds: number; longestBatchSeconds: number }> {
  const client = new SQSClient({});
  let longest = 0;
  const timedConsumer: NightlyJob['consumer'] = async (event, context) => {
    const started = performance.now();
    try {
      return await nightly.consumer(event, context);
    } finally {
      longest = Math.max(longest, performance.now() - started);
    }
  };
  const pollers = Array.from({ length: workers }, () =>
    startQueuePoller({ client, queueUrl: config.queueUrl(nightly.queue), handler: timedConsumer, batchSize: 10, waitTimeSeconds: 1 }),
  );
  const started = performance.now();
  const seconds = (ms: number) => Math.round(ms / 100) / 10;
  try {
    const run = await nightly.plan(date);
    const planSeconds = seconds(performance.now() - started);
    for (;;) {
      const progress = await getNightlyRun(nightly.job, date, run.runId);
      if (progress && progress.batchesDone >= progress.batches) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return { seconds: seconds(performance.now() - started), accounts: run.accounts, batches: run.batches, planSeconds, longestBatchSeconds: seconds(longest) };
  } finally {
    await Promise.all(pollers.map((poller) => poller.stop()));
    client.destroy();
  }
}

/**
 * A caller that makes one call, records its capacity and time as a row of `rows`, and answers
 * the envelope; a call that does not succeed stops the scenario (a figure of a failure means nothing).
 */
export function meteredCaller(context: BenchContext, rows: BenchRow[]) {
  return async (name: string, path: string, body: Record<string, unknown>) => {
    const call = await context.call(path, body);
    if (call.body?.success !== true) throw new Error(`${name} failed: ${JSON.stringify(call.body)}`);
    rows.push({ name: `${name} (one call)`, readUnits: call.readUnits, writeUnits: call.writeUnits, ms: Math.round(call.ms * 10) / 10 });
    return call.body;
  };
}

/** A surname from the letters a-p only (base 16), unique per index: "Baaaason", "Baaabson", ... */
export function benchSurname(index: number): string {
  let word = '';
  let rest = index;
  do {
    word = String.fromCharCode(97 + (rest % 16)) + word;
    rest = Math.floor(rest / 16);
  } while (rest > 0);
  return `B${word.padStart(4, 'a')}son`;
}

/**
 * A day's earning as the nightly schedule runs it: in the small hours of the day after (its
 * counters then land in a month still open, with no close's fence to check), the clock handed back after.
 */
export async function earnedAsTheNightRuns(date: string): ReturnType<typeof earnDay> {
  clock.startAt(`${addDays(date, 1)}T02:00:00.000Z`);
  try {
    return await earnDay(date);
  } finally {
    clock.startAt(undefined);
  }
}


/** A subscriber on this machine that answers every delivery 204 and counts them (the events scenarios). */
export async function countingSubscriber(): Promise<{ url: string; arrived: () => number; reset: () => void; close: () => Promise<void> }> {
  let arrived = 0;
  const server = createServer((request, response) => {
    request.resume().on('end', () => {
      arrived += 1;
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    arrived: () => arrived,
    reset: () => void (arrived = 0),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Runs the local events workers until `count` deliveries reached the subscriber (at most two minutes), then stops them. */
export async function deliveredByLocalWorkers(subscriber: { arrived: () => number }, count: number): Promise<void> {
  const workers = await startLocalWorkers({ only: ['events', 'event-retries'] });
  try {
    const deadline = Date.now() + 120_000;
    while (subscriber.arrived() < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  } finally {
    await workers.close();
  }
}
