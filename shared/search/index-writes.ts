/**
 * The writes that keep the search index current, for the area making a change to put in
 * its OWN transaction (the index never lags the policy): a new policy's record and
 * tokens; a status, review state, revision state or term dates changed; a quote removed.
 * Pure builders: they read nothing. Every update of a record is conditioned on its
 * existence, so that a change never leaves a partial record behind.
 */
import { config } from '../platform/config.js';
import type { TransactionWrite } from '../platform/transactions.js';
import { recordIndexKeys, searchRecordKey, searchTokenKey, statusPartition, tokenIndexKeys } from './keys.js';
import type { SearchRecord, SearchablePolicy } from './model.js';
import { policyTokens } from './rules.js';

/** The search index's writes are ordinary transaction writes: they land in the transaction of the change they follow. */
export type IndexWrite = TransactionWrite;

const table = () => config.tableName();

/** The record as stored, tokens included. */
export function searchRecordOf(policy: SearchablePolicy): SearchRecord {
  return { entity: 'PolicySearchRecord', ...policy, tokens: policyTokens(policy) };
}

/** The record and the token items of a new policy (create_policy, quotes). */
export function searchIndexWritesForNewPolicy(policy: SearchablePolicy): IndexWrite[] {
  const record = searchRecordOf(policy);
  return [
    { Put: { TableName: table(), Item: { ...searchRecordKey(policy.policyId), ...recordIndexKeys(policy), ...record }, ConditionExpression: 'attribute_not_exists(pk)' } },
    ...record.tokens.map((token) => ({
      Put: {
        TableName: table(),
        Item: { ...searchTokenKey(policy.policyId, token), ...tokenIndexKeys(policy.policyId, token), entity: 'PolicySearchToken', policyId: policy.policyId, token },
      },
    })),
  ];
}

/** How many writes a new policy's index takes at most (for the create transaction's size check). */
export function searchIndexWriteCount(policy: Pick<SearchablePolicy, 'policyNumber' | 'namedInsuredNames'>): number {
  return 1 + policyTokens(policy).length;
}

/** Sets attributes of a policy's record (and the listing keys that follow its status). */
function recordUpdate(policyId: string, set: Record<string, unknown>): IndexWrite {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const assignments = Object.entries(set).map(([attribute, value], index) => {
    names[`#s${index}`] = attribute;
    values[`:s${index}`] = value;
    return `#s${index} = :s${index}`;
  });
  return {
    Update: {
      TableName: table(),
      Key: searchRecordKey(policyId),
      UpdateExpression: `SET ${assignments.join(', ')}`,
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/**
 * A policy's status changed (bind: Submitted; issue: Active; cancellation: Cancelled;
 * expiry: Expired; a rejection: Rejected). `revisionState` when the active revision's
 * state changed with it (issue commits it).
 */
export function searchIndexWritesForStatus(policyId: string, newStatus: string, extra: { revisionState?: string; activeRevisionId?: string; cancelPendingDate?: string | null } = {}): IndexWrite[] {
  return [recordUpdate(policyId, { status: newStatus, gsi2pk: statusPartition(newStatus), ...extra })];
}

/** A cancellation was set pending until `cancelPendingDate` (null: withdrawn); the status stays as it is until it takes effect. */
export function searchIndexWritesForCancellationPending(policyId: string, cancelPendingDate: string | null): IndexWrite[] {
  return [recordUpdate(policyId, { cancelPendingDate })];
}

/** The review workflow moved the active revision's review state. */
export function searchIndexWritesForReviewState(policyId: string, reviewState: string): IndexWrite[] {
  return [recordUpdate(policyId, { reviewState })];
}

/** The active term's dates moved (update_effective_and_expiration_date), and with them perhaps the policy type. */
export function searchIndexWritesForTermDates(
  policyId: string,
  dates: { effectiveDate: string; expirationDate: string; policyTypeId?: string; policyTypeName?: string },
): IndexWrite[] {
  return [recordUpdate(policyId, Object.fromEntries(Object.entries(dates).filter(([, value]) => value !== undefined)))];
}

/** The policy's flag changed. */
export function searchIndexWritesForFlag(policyId: string, flag: string): IndexWrite[] {
  return [recordUpdate(policyId, { flag })];
}

/**
 * The named insureds changed: the record takes the new names, token items no longer
 * true are deleted and new ones put. `before` is the record as read.
 */
export function searchIndexWritesForNamedInsureds(before: SearchRecord, namedInsuredNames: string[], contactIds: string[]): IndexWrite[] {
  const after = searchRecordOf({ ...before, namedInsuredNames, contactIds });
  const gone = before.tokens.filter((token) => !after.tokens.includes(token));
  const added = after.tokens.filter((token) => !before.tokens.includes(token));
  return [
    recordUpdate(before.policyId, { namedInsuredNames, contactIds, tokens: after.tokens }),
    ...gone.map((token) => ({ Delete: { TableName: table(), Key: searchTokenKey(before.policyId, token) } })),
    ...added.map((token) => ({
      Put: {
        TableName: table(),
        Item: { ...searchTokenKey(before.policyId, token), ...tokenIndexKeys(before.policyId, token), entity: 'PolicySearchToken', policyId: before.policyId, token },
      },
    })),
  ];
}

/** A policy (a quote replaced by requote) leaves the index: its record and every token. */
export function searchIndexDeletes(record: Pick<SearchRecord, 'policyId' | 'tokens'>): IndexWrite[] {
  return [
    { Delete: { TableName: table(), Key: searchRecordKey(record.policyId) } },
    ...record.tokens.map((token) => ({ Delete: { TableName: table(), Key: searchTokenKey(record.policyId, token) } })),
  ];
}
