/**
 * The policies area's part of the lifecycle moves (bind, issue): the guarded writes that
 * move a revision and its policy, handed to the lifecycle area to run in one transaction
 * with what other areas contribute. Key literals stay in keys.ts.
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../platform/clients.js';
import { config } from '../platform/config.js';
import { transactionCancellationReasons } from '../platform/dynamo.js';
import { ConcurrentChangeError } from '../platform/errors.js';
import { guardedRevisionUpdate, policyKey, versionedUpdate } from './keys.js';
import type { PolicyRecord, RevisionRecord } from './model.js';
import { searchIndexWritesForStatus } from '../search/index-writes.js';

/** Submits an open, unsubmitted revision (bind). */
export function bindWrite(header: RevisionRecord) {
  return { Update: withStatusGuard(guardedRevisionUpdate(config.tableName(), header.id, header.version, { policyStatus: 'Submitted' }), 'Unsubmitted') };
}

/** Bind's writes: the revision submitted, and the policy's search record following it in the same transaction. */
export function bindWrites(header: RevisionRecord) {
  return [bindWrite(header), ...searchIndexWritesForStatus(header.policyId, 'Submitted')];
}

/** Commits a submitted revision and makes its policy active (issue). */
export function issueWrites(header: RevisionRecord, policy: PolicyRecord, commitDate: string) {
  const table = config.tableName();
  return [
    { Update: withStatusGuard(guardedRevisionUpdate(table, header.id, header.version, { revisionState: 'committed', policyStatus: 'Active', commitDate }), 'Submitted') },
    { Update: versionedUpdate(table, policyKey(policy.id), policy.version, { active: true, submitBound: true }) },
    // The search record follows the status and the committed revision, in the same transaction.
    ...searchIndexWritesForStatus(policy.id, 'Active', { revisionState: 'committed' }),
  ];
}

function withStatusGuard<T extends { ConditionExpression: string; ExpressionAttributeNames: Record<string, string>; ExpressionAttributeValues: Record<string, unknown> }>(update: T, status: string): T {
  return {
    ...update,
    ConditionExpression: `${update.ConditionExpression} AND #status = :status`,
    ExpressionAttributeNames: { ...update.ExpressionAttributeNames, '#status': 'policyStatus' },
    ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':status': status },
  };
}

/** Runs a lifecycle move's writes as one transaction; a failed guard is a concurrent change. */
export async function runLifecycleTransaction(writes: ReadonlyArray<Record<string, unknown>>, label: string): Promise<void> {
  try {
    await documentClient().send(new TransactWriteCommand({ TransactItems: writes as never }));
  } catch (error) {
    if (transactionCancellationReasons(error)) throw new ConcurrentChangeError(label);
    throw error;
  }
}
