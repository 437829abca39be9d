/**
 * Keys of the search area (docs/data-model.md, Search). Everything indexed for a policy
 * sits in its own partition `PSEARCH#<policyId>`:
 * - one record (what an answer shows; read by key, a page at a time);
 * - one listing entry (small: status and keys), in gsi1 with every policy, gsi2 by status and
 *   gsi3 by agency, for searches without a search string;
 * - counter shards of how many policies there are (`PSEARCHCOUNT`), for an unfiltered listing;
 * - one token item per word or number form (small: keys only), in gsi1 partitioned by the
 *   token's first character and, for a policy of an agency, in gsi3 partitioned by agency
 *   and first character, so that an agent's word search reads its agencies' matches only.
 * Every index entry's sort key carries the policy number's order key, so a search can count
 * and order its matches from these small entries and read the records of one page only.
 */
import { numberOrderKey } from './rules.js';
import { stableShard } from '../platform/shards.js';

export type Key = { pk: string; sk: string };

export const searchRecordKey = (policyId: string): Key => ({ pk: `PSEARCH#${policyId}`, sk: 'RECORD' });
export const searchListingKey = (policyId: string): Key => ({ pk: `PSEARCH#${policyId}`, sk: 'LISTING' });
export const searchTokenKey = (policyId: string, token: string): Key => ({ pk: `PSEARCH#${policyId}`, sk: `TOKEN#${token}` });

/** The policy id of any item of a policy's search partition. */
export const policyIdOfSearchKey = (pk: string) => pk.slice('PSEARCH#'.length);

/** The gsi1 partition of a token: its first character, so that one letter's words do not share a partition with all others. */
export const tokenPartition = (token: string) => `PTOKEN#${[...token][0] ?? ''}`;
/** The gsi3 partition of an agency's tokens of one first character. */
export const agencyTokenPartition = (agencyId: string, token: string) => `PATOKEN#${agencyId}#${[...token][0] ?? ''}`;

/** A token item's index keys: carrier-wide (gsi1) and, with an agency, the agency's (gsi3); sorted by token, then policy number. */
export function tokenIndexKeys(policy: { policyId: string; policyNumber: string; agencyId: string | null }, token: string) {
  const sort = `${token}#${numberOrderKey(policy.policyNumber)}`;
  return {
    gsi1pk: tokenPartition(token),
    gsi1sk: sort,
    ...(policy.agencyId ? { gsi3pk: agencyTokenPartition(policy.agencyId, token), gsi3sk: sort } : {}),
  };
}

export const statusPartition = (status: string) => `PSTATUS#${status}`;
/** The gsi1 partition listing every policy by number: an unfiltered listing pages it with Limit. */
export const ALL_POLICIES_PARTITION = 'PLISTALL';

/**
 * How many policies the index holds, as counter shards: a new policy adds 1 to its `ADDED`
 * shard in its create transaction, a removed one adds 1 to its `REMOVED` shard in the removal's,
 * so the count (added - removed) is exact. Removals count apart so that a requote (one quote
 * created and one removed in one transaction) never writes one item twice; shards keep
 * concurrent creates from meeting on one item (those that do are retried by the create).
 */
export const POLICY_COUNT_SHARDS = 16;
export function policyCountShard(policyId: string): number {
  return stableShard(policyId, POLICY_COUNT_SHARDS);
}
export const policyCountKey = (kind: 'ADDED' | 'REMOVED', shard: number): Key => ({ pk: 'PSEARCHCOUNT', sk: `${kind}#${String(shard).padStart(2, '0')}` });
/** Every counter shard (both kinds): one small strongly consistent Query. */
export const policyCountQuery = (tableName: string) => ({
  TableName: tableName,
  KeyConditionExpression: 'pk = :pk',
  ExpressionAttributeValues: { ':pk': 'PSEARCHCOUNT' },
  ConsistentRead: true,
});
export const agencyPartition = (agencyId: string) => `PAGENCY#${agencyId}`;

/** The listing entry's keys: every policy (gsi1), by status (gsi2) and, when it has one, by agency (gsi3); sorted by policy number. */
export function listingIndexKeys(record: { policyId: string; policyNumber: string; status: string; agencyId: string | null }) {
  const sort = `${numberOrderKey(record.policyNumber)}#${record.policyId}`;
  return {
    gsi1pk: ALL_POLICIES_PARTITION,
    gsi1sk: sort,
    gsi2pk: statusPartition(record.status),
    gsi2sk: sort,
    ...(record.agencyId ? { gsi3pk: agencyPartition(record.agencyId), gsi3sk: sort } : {}),
  };
}

/** Token items beginning with a search word, carrier-wide (gsi1) or of one agency (gsi3); keys only. */
export function tokenPrefixQuery(tableName: string, word: string, agencyId?: string) {
  const [index, partition] = agencyId ? ['gsi3', agencyTokenPartition(agencyId, word)] : ['gsi1', tokenPartition(word)];
  return {
    TableName: tableName,
    IndexName: index,
    KeyConditionExpression: `${index}pk = :pk AND begins_with(${index}sk, :prefix)`,
    ExpressionAttributeValues: { ':pk': partition, ':prefix': word },
    ProjectionExpression: `pk, ${index}sk`,
  };
}

/** What a listing entry carries beside its keys (index-store.ts `LISTING_FIELDS`), as a projection. */
const LISTING_PROJECTION = '#status, revisionState, reviewState, policyTypeId, policyTypeName';

/** Listing entries of every policy in number order (gsi1), ascending or descending. */
export function allPoliciesListingQuery(tableName: string, order: 'asc' | 'desc') {
  return {
    TableName: tableName,
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': ALL_POLICIES_PARTITION },
    ProjectionExpression: 'pk, gsi1sk',
    ScanIndexForward: order === 'asc',
  };
}

/** Listing entries of one status (gsi2). */
export function statusListingQuery(tableName: string, status: string) {
  return {
    TableName: tableName,
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :pk',
    ExpressionAttributeValues: { ':pk': statusPartition(status) },
    ProjectionExpression: `pk, gsi2sk, ${LISTING_PROJECTION}`,
    ExpressionAttributeNames: { '#status': 'status' },
  };
}

/** Listing entries of one agency (gsi3). */
export function agencyListingQuery(tableName: string, agencyId: string) {
  return {
    TableName: tableName,
    IndexName: 'gsi3',
    KeyConditionExpression: 'gsi3pk = :pk',
    ExpressionAttributeValues: { ':pk': agencyPartition(agencyId) },
    ProjectionExpression: `pk, gsi3sk, ${LISTING_PROJECTION}`,
    ExpressionAttributeNames: { '#status': 'status' },
  };
}
