/**
 * The record of one nightly job's run for one day (billing, renewals): how many batches its
 * planner fanned out, how many its consumers have done, and a sample of what they decided.
 * `npm run nightly` and the tests wait on it; nothing decides from it.
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { documentClient } from './clients.js';
import { config } from './config.js';
import { isConditionalCheckFailure } from './dynamo.js';
import { builtOnFirstUse } from './request-fields.js';
import { withoutStorageKeys } from './transactions.js';

/** A policy term a nightly batch decides. */
export interface NightlyTermRef {
  policyId: string;
  termId: string;
}

/** One batch of a nightly job's run as its queue carries it: the terms it decides under `list` (accounts, terms). */
export type NightlyBatchOf<Job extends string, List extends string> = { job: Job; date: string; runId: string; batch: number } & { [key in List]: NightlyTermRef[] };

/**
 * The schema of a nightly job's queue message (one batch of at most `most` terms), built on the
 * consumer's first message rather than at a cold start.
 */
export function nightlyBatchMessageOf<Job extends string, List extends string>(job: Job, list: List, most: number): () => z.ZodMiniType<NightlyBatchOf<Job, List>> {
  return builtOnFirstUse(() => {
    const ref = z.string().check(z.minLength(1), z.maxLength(100));
    return z.object({
      job: z.literal(job),
      date: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/)),
      runId: ref,
      batch: z.int().check(z.nonnegative()),
      [list]: z.array(z.object({ policyId: ref, termId: ref })).check(z.maxLength(most)),
    }) as unknown as z.ZodMiniType<NightlyBatchOf<Job, List>>;
  });
}

/** One decision a run lists: the policy and what was decided of it (each job adds its own fields). */
export interface NightlyDecision {
  policyNumber: string;
  decision: string;
}

export interface NightlyRun<Decision extends NightlyDecision = NightlyDecision> {
  job: string;
  date: string;
  runId: string;
  batches: number;
  /** What the run fanned out (accounts, terms). */
  accounts: number;
  batchesDone: number;
  startedAt: string;
  /** What the run decided (at most NIGHTLY_DECISIONS_LISTED_PER_BATCH of each batch). */
  decisions?: Decision[];
  /** Decisions taken beyond those listed. */
  decisionsUnlisted?: number;
}

/** Noon of a run's day: the instant the moves a nightly run decides are dated by, whenever it runs. */
export const nightlyDecisionInstant = (date: string) => new Date(`${date}T12:00:00.000Z`);

/** Keeps a run record of 10,000 accounts far below DynamoDB's item size whatever the night decides. */
export const NIGHTLY_DECISIONS_LISTED_PER_BATCH = 10;

const table = () => config.tableName();
/** One nightly run's record, per job, day and run. */
export const nightlyRunKey = (job: string, date: string, runId: string) => ({ pk: `NIGHTLY#${job}`, sk: `RUN#${date}#${runId}` });

/** Records a nightly run once it has fanned out its batches. */
export async function recordNightlyRun(run: Omit<NightlyRun, 'batchesDone'>): Promise<void> {
  await documentClient().send(
    new PutCommand({ TableName: table(), Item: { ...nightlyRunKey(run.job, run.date, run.runId), entity: 'NightlyRun', ...run, batchesDone: 0 }, ConditionExpression: 'attribute_not_exists(pk)' }),
  );
}

/** Counts one batch of a run as done (a batch retried after its first success is counted once: see the consumers). */
export async function countNightlyBatchDone(job: string, date: string, runId: string, decisions: readonly NightlyDecision[] = []): Promise<void> {
  const listed = decisions.slice(0, NIGHTLY_DECISIONS_LISTED_PER_BATCH);
  const unlisted = decisions.length - listed.length;
  await documentClient().send(
    new UpdateCommand({
      TableName: table(),
      Key: nightlyRunKey(job, date, runId),
      UpdateExpression: `ADD batchesDone :one${unlisted ? ', decisionsUnlisted :unlisted' : ''}${listed.length ? ' SET decisions = list_append(if_not_exists(decisions, :none), :listed)' : ''}`,
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':one': 1, ...(unlisted ? { ':unlisted': unlisted } : {}), ...(listed.length ? { ':none': [], ':listed': listed } : {}) },
    }),
  ).catch((error) => {
    // A batch of a run whose record is not written yet (the planner writes it after sending): counted by nobody, harmless.
    if (!isConditionalCheckFailure(error)) throw error;
  });
}

export async function getNightlyRun<Decision extends NightlyDecision = NightlyDecision>(job: string, date: string, runId: string): Promise<NightlyRun<Decision> | undefined> {
  const result = await documentClient().send(new GetCommand({ TableName: table(), Key: nightlyRunKey(job, date, runId), ConsistentRead: true }));
  return result.Item ? withoutStorageKeys<NightlyRun<Decision>>(result.Item) : undefined;
}
