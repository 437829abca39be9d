/**
 * The writes that keep the search index current, for the area making a change to put in
 * its OWN transaction (the index never lags the policy): a new policy's record and
 * tokens; a status, review state, revision state or term dates changed; a quote removed.
 * Pure builders: they read nothing. Every update of a record (and of its listing entry) is
 * conditioned on its existence, so that a change never leaves a partial record behind.
 */
import { config } from '../platform/config.js';
import type { TransactionWrite } from '../platform/transactions.js';
import { listingIndexKeys, policyCountKey, policyCountShard, searchListingKey, searchRecordKey, searchTokenKey, statusPartition, tokenIndexKeys } from './keys.js';
import type { RewriteSide, SearchRecord, SearchablePolicy } from './model.js';
import { indexedTokens, policyTokens } from './rules.js';

/** The search index's writes are ordinary transaction writes: they land in the transaction of the change they follow. */
export type IndexWrite = TransactionWrite;

const table = () => config.tableName();

/** The record as stored, tokens included. */
export function searchRecordOf(policy: SearchablePolicy): SearchRecord {
  return { entity: 'PolicySearchRecord', ...policy, tokens: policyTokens(policy) };
}

/** A token item: keys only (its index entries are what a search counts and orders its matches by). */
function tokenPut(policy: Pick<SearchablePolicy, 'policyId' | 'policyNumber' | 'agencyId'>, token: string): IndexWrite {
  return { Put: { TableName: table(), Item: { ...searchTokenKey(policy.policyId, token), ...tokenIndexKeys(policy, token) } } };
}

/** The record, the listing entry and the token items of a new policy (create_policy, quotes). */
export function searchRecordOfNewPolicy(policy: SearchablePolicy): IndexWrite[] {
  const record = searchRecordOf(policy);
  return [
    { Put: { TableName: table(), Item: { ...searchRecordKey(policy.policyId), ...record }, ConditionExpression: 'attribute_not_exists(pk)' } },
    { Put: { TableName: table(), Item: { ...searchListingKey(policy.policyId), ...listingIndexKeys(policy), ...listingFieldsOf(policy) } } },
    policyCountUpdate(policy.policyId, 'ADDED'),
    ...indexedTokens(record.tokens).map((token) => tokenPut(policy, token)),
  ];
}

/** The count of policies moves with the index: a new policy's record counts as added, its removal as removed. */
function policyCountUpdate(policyId: string, kind: 'ADDED' | 'REMOVED', by = 1): IndexWrite {
  return {
    Update: {
      TableName: table(),
      Key: policyCountKey(kind, policyCountShard(policyId)),
      UpdateExpression: 'ADD #count :by',
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':by': by },
    },
  };
}

/**
 * The index items of many policies at once, for a bulk load (a re-index, a seeded benchmark):
 * every Put item, and the counter shards' increments summed (one update per shard).
 */
export function searchIndexItemsForImport(policies: readonly SearchablePolicy[]): { items: Array<Record<string, unknown>>; counterUpdates: IndexWrite[] } {
  const items: Array<Record<string, unknown>> = [];
  const perShard = new Map<string, { policyId: string; added: number }>();
  for (const policy of policies) {
    for (const write of searchRecordOfNewPolicy(policy)) if (write.Put) items.push(write.Put.Item as Record<string, unknown>);
    const shard = policyCountKey('ADDED', policyCountShard(policy.policyId)).sk;
    const counted = perShard.get(shard) ?? { policyId: policy.policyId, added: 0 };
    perShard.set(shard, { ...counted, added: counted.added + 1 });
  }
  return { items, counterUpdates: [...perShard.values()].map(({ policyId, added }) => policyCountUpdate(policyId, 'ADDED', added)) };
}

/** How many writes a new policy's index takes at most (for the create transaction's size check). */
export function searchIndexWriteCount(policy: Pick<SearchablePolicy, 'policyNumber' | 'namedInsuredNames'>): number {
  return 3 + policyTokens(policy).length;
}

/** The fields a listing entry carries beside its keys: what a search without a search string filters on. */
export const LISTING_FIELDS = ['status', 'revisionState', 'reviewState', 'policyTypeId', 'policyTypeName'] as const;

function listingFieldsOf(source: Partial<Record<(typeof LISTING_FIELDS)[number], unknown>>): Record<string, unknown> {
  return Object.fromEntries(LISTING_FIELDS.filter((field) => source[field] !== undefined).map((field) => [field, source[field]]));
}

/** SETs attributes of one item of the policy's search partition, only if it exists. */
function setOn(key: { pk: string; sk: string }, set: Record<string, unknown>): IndexWrite {
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
      Key: key,
      UpdateExpression: `SET ${assignments.join(', ')}`,
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/**
 * Sets attributes of a policy's record, and of its listing entry those the entry carries (its
 * gsi2 partition follows the status): both in the caller's transaction, so they move together.
 */
function recordUpdates(policyId: string, set: Record<string, unknown>): IndexWrite[] {
  const listed = listingFieldsOf(set);
  if (typeof listed.status === 'string') listed.gsi2pk = statusPartition(listed.status);
  return [setOn(searchRecordKey(policyId), set), ...(Object.keys(listed).length ? [setOn(searchListingKey(policyId), listed)] : [])];
}

/**
 * A policy's status changed (bind: Submitted; issue: Active; cancellation: Cancelled;
 * expiry: Expired; a rejection: Rejected). `revisionState` when the active revision's
 * state changed with it (issue commits it); `reviewState` when the review it showed is gone
 * with the change (a held renewal archived at expiry).
 */
export function searchIndexWritesForStatus(
  policyId: string,
  newStatus: string,
  extra: { revisionState?: string; reviewState?: string; activeRevisionId?: string; cancelPendingDate?: string | null; effectiveDate?: string; expirationDate?: string } = {},
): IndexWrite[] {
  return recordUpdates(policyId, { status: newStatus, ...extra });
}

/** A cancellation was set pending until `cancelPendingDate` (null: withdrawn); the status stays as it is until it takes effect. */
export function searchIndexWritesForCancellationPending(policyId: string, cancelPendingDate: string | null): IndexWrite[] {
  return recordUpdates(policyId, { cancelPendingDate });
}

/** The review workflow moved the active revision's review state. */
export function searchReviewStateChange(policyId: string, reviewState: string): IndexWrite[] {
  return recordUpdates(policyId, { reviewState });
}

/** The active term's dates moved (update_effective_and_expiration_date), and with them perhaps the policy type. */
export function searchTermDatesChange(
  policyId: string,
  dates: { effectiveDate: string; expirationDate: string; policyTypeId?: string; policyTypeName?: string },
): IndexWrite[] {
  return recordUpdates(policyId, Object.fromEntries(Object.entries(dates).filter(([, value]) => value !== undefined)));
}

/** The policy's flag changed. */
export function searchIndexWritesForFlag(policyId: string, flag: string): IndexWrite[] {
  return recordUpdates(policyId, { flag });
}

/**
 * The named insureds changed: the record takes the new names, token items no longer
 * true are deleted and new ones put. `before` is the record as read.
 */
export function searchIndexWritesForNamedInsureds(before: SearchRecord, namedInsuredNames: string[], contactIds: string[]): IndexWrite[] {
  const after = searchRecordOf({ ...before, namedInsuredNames, contactIds });
  // Policies stored before indexedTokens have an item for every token: what may be stored is
  // any of before.tokens, what surely is, the indexed ones; after's indexed ones must all be.
  const kept = indexedTokens(after.tokens);
  const surelyStored = indexedTokens(before.tokens);
  const gone = before.tokens.filter((token) => !kept.includes(token));
  const added = kept.filter((token) => !surelyStored.includes(token));
  return [
    ...recordUpdates(before.policyId, { namedInsuredNames, contactIds, tokens: after.tokens }),
    ...gone.map((token) => ({ Delete: { TableName: table(), Key: searchTokenKey(before.policyId, token) } })),
    ...added.map((token) => tokenPut(before, token)),
  ];
}

/** A policy (a quote replaced by requote) leaves the index: its record and every token. */
export function searchRemovalOf(record: Pick<SearchRecord, 'policyId' | 'tokens'>): IndexWrite[] {
  return [
    // The record must be there for the count to fall: a removal sent twice takes one off once.
    { Delete: { TableName: table(), Key: searchRecordKey(record.policyId), ConditionExpression: 'attribute_exists(pk)' } },
    policyCountUpdate(record.policyId, 'REMOVED'),
    { Delete: { TableName: table(), Key: searchListingKey(record.policyId) } },
    ...record.tokens.map((token) => ({ Delete: { TableName: table(), Key: searchTokenKey(record.policyId, token) } })),
  ];
}

/**
 * A rewrite to a new account: the old policy's record names what it became (and takes its status,
 * Cancelled unless it had expired), the new policy's record is written naming what it came from,
 * and each is found by the other's number too (their token items), so that a number search
 * finds both sides.
 */
export function searchIndexWritesForRewriteToNewPolicy(old: SearchRecord, oldStatus: string, created: SearchablePolicy & { rewrittenFrom: RewriteSide }, rewrittenTo: RewriteSide): IndexWrite[] {
  const numberTokens = (policyNumber: string) => policyTokens({ policyNumber, namedInsuredNames: [] });
  const oldGains = numberTokens(created.policyNumber).filter((token) => !old.tokens.includes(token));
  const record = searchRecordOf(created);
  const newGains = numberTokens(old.policyNumber).filter((token) => !record.tokens.includes(token));
  const tokens = [...record.tokens, ...newGains];
  return [
    ...recordUpdates(old.policyId, { status: oldStatus, cancelPendingDate: null, rewrittenTo, tokens: [...old.tokens, ...oldGains] }),
    ...indexedTokens(oldGains).map((token) => tokenPut(old, token)),
    { Put: { TableName: table(), Item: { ...searchRecordKey(created.policyId), ...record, tokens }, ConditionExpression: 'attribute_not_exists(pk)' } },
    { Put: { TableName: table(), Item: { ...searchListingKey(created.policyId), ...listingIndexKeys(created), ...listingFieldsOf(created) } } },
    policyCountUpdate(created.policyId, 'ADDED'),
    ...indexedTokens(tokens).map((token) => tokenPut(created, token)),
  ];
}

/** A rewrite under the same number: the record moves to the new term (Active, its revision, dates and policy type) and names the term it came from. */
export function searchIndexWritesForRewrite(
  policyId: string,
  moved: { activeRevisionId: string; effectiveDate: string; expirationDate: string; policyTypeId: string; policyTypeName: string; rewrittenFrom: RewriteSide },
): IndexWrite[] {
  return recordUpdates(policyId, { status: 'Active', revisionState: 'committed', cancelPendingDate: null, ...moved });
}
