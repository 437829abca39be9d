/**
 * The rate impact runs' storage: the only code that knows their keys. One partition per run:
 * the run (who, when, versions, filters, how many batches, how many done), the candidate
 * line file when it was uploaded (not a stored version), and one item per batch done with the
 * policies it rated. docs/data-model.md lists them.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../platform/clients.js';
import { config } from '../platform/config.js';
import { queryAll } from '../platform/dynamo.js';
import { RecordChangedError, runTransaction, withoutStorageKeys } from '../platform/transactions.js';
import type { PolicyImpact } from './impact-report.js';

export interface RateImpactFilters {
  state?: string;
  territory?: string;
  zip?: string;
  agencyId?: string;
  renewingWithinDays?: number;
}

export interface CandidateRateVersion {
  id: string;
  name: string;
  state: string;
  renewalEffectiveDate: string;
  renewalCapPercent?: string;
}

export interface RateImpactRun {
  runId: string;
  requestedBy: string;
  requestedAt: string;
  /** The day the run rated for (its renewals are drafted as of it). */
  asOf: string;
  /** What was rated against the book: a stored product version, or a line file uploaded with the call. */
  candidate: { productVersionId: string } | { lineFile: true };
  candidateRateVersions: CandidateRateVersion[];
  /** The rate versions of the catalog in force when the run began, per state, as the renewals in scope would take them. */
  currentRateVersions?: string[];
  filters: RateImpactFilters;
  /** SHA-256 of the candidate line file's content: what a publication requiring a run checks it rated. */
  fingerprint: string;
  /** Whether the run's terms have been read and fanned out (termsRead and batches are known). */
  planned: boolean;
  /** Watched terms the run read (before its filters). */
  termsRead: number;
  batches: number;
  batchesDone: number;
}

export interface RateImpactBatch {
  batch: number;
  policies: PolicyImpact[];
  skipped: Array<{ policyNumber: string; reason: string }>;
}

const table = () => config.tableName();
const runKey = (runId: string) => ({ pk: `RATEIMPACT#${runId}`, sk: 'RUN' });
const candidateKey = (runId: string) => ({ pk: `RATEIMPACT#${runId}`, sk: 'CANDIDATE' });
const batchKey = (runId: string, batch: number) => ({ pk: `RATEIMPACT#${runId}`, sk: `BATCH#${String(batch).padStart(6, '0')}` });

/** The run and, for an uploaded line file, the file itself, written together before any batch goes out. */
export async function recordRateImpactRun(run: RateImpactRun, lineFile?: string): Promise<void> {
  await runTransaction(
    [
      { Put: { TableName: table(), Item: { ...runKey(run.runId), entity: 'RateImpactRun', ...run }, ConditionExpression: 'attribute_not_exists(pk)' } },
      ...(lineFile ? [{ Put: { TableName: table(), Item: { ...candidateKey(run.runId), entity: 'RateImpactCandidate', document: lineFile }, ConditionExpression: 'attribute_not_exists(pk)' } }] : []),
    ],
    { label: `Rate impact run ${run.runId}` },
  );
}

/** The run planned: how many terms it read and in how many batches it sent them. */
export async function markRateImpactPlanned(runId: string, plan: { termsRead: number; batches: number }): Promise<void> {
  await documentClient().send(
    new UpdateCommand({
      TableName: table(),
      Key: runKey(runId),
      UpdateExpression: 'SET planned = :true, termsRead = :terms, batches = :batches',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':true': true, ':terms': plan.termsRead, ':batches': plan.batches },
    }),
  );
}

export async function getRateImpactRun(runId: string): Promise<RateImpactRun | undefined> {
  const result = await documentClient().send(new GetCommand({ TableName: table(), Key: runKey(runId), ConsistentRead: true }));
  return result.Item ? withoutStorageKeys<RateImpactRun>(result.Item) : undefined;
}

export async function getRateImpactCandidate(runId: string): Promise<string | undefined> {
  const result = await documentClient().send(new GetCommand({ TableName: table(), Key: candidateKey(runId) }));
  return result.Item?.document as string | undefined;
}

/**
 * One batch's policies stored and counted done in one transaction; a batch delivered again
 * finds its item and counts nothing twice.
 */
export async function recordRateImpactBatch(runId: string, batch: RateImpactBatch): Promise<'recorded' | 'already'> {
  try {
    await runTransaction(
      [
        { Put: { TableName: table(), Item: { ...batchKey(runId, batch.batch), entity: 'RateImpactBatch', ...batch }, ConditionExpression: 'attribute_not_exists(pk)' } },
        { Update: { TableName: table(), Key: runKey(runId), UpdateExpression: 'ADD batchesDone :one', ConditionExpression: 'attribute_exists(pk)', ExpressionAttributeValues: { ':one': 1 } } },
      ],
      { label: `Rate impact run ${runId}, batch ${batch.batch}` },
    );
    return 'recorded';
  } catch (error) {
    if (error instanceof RecordChangedError && error.index === 0) return 'already';
    throw error;
  }
}

/** Every batch of a run, in batch order (one query of the run's partition). */
export async function rateImpactBatches(runId: string): Promise<RateImpactBatch[]> {
  const items = await queryAll<Record<string, unknown>>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :batch)',
    ExpressionAttributeValues: { ':pk': `RATEIMPACT#${runId}`, ':batch': 'BATCH#' },
  });
  return items.map((item) => withoutStorageKeys<RateImpactBatch>(item));
}
