/**
 * The search store: the only code that reads the search index's keys. Reads go by key
 * or by index Query, never Scan: a search word reads the token entries it prefixes (keys
 * only), a listing reads one status's or one agency's listing entries (keys and status),
 * and only the records of the page answered are read whole.
 */
import { batchGetAll, queryAll, queryPages } from '../platform/dynamo.js';
import { withoutStorageKeys } from '../platform/transactions.js';
import { config } from '../platform/config.js';
import { agencyListingQuery, allPoliciesListingQuery, policyCountQuery, policyIdOfSearchKey, searchRecordKey, statusListingQuery, tokenPrefixQuery } from './keys.js';
import type { SearchRecord } from './model.js';

const table = () => config.tableName();

/** A match as the index names it: the policy, and the order key of its number (keys.ts `numberOrderKey`). */
export interface IndexedMatch {
  policyId: string;
  orderKey: string;
  /** What listing entries carry (and a record read whole); token entries carry none of it. */
  listed?: ListedFacts;
}

/** The facts a listing entry carries, what a search without a search string filters on. */
export interface ListedFacts {
  status: string;
  revisionState: string;
  reviewState: string;
  policyTypeId: string;
  policyTypeName: string;
}

/** Drops the storage-only attributes (keys, index keys). */
const strip = (item: Record<string, unknown>): SearchRecord => withoutStorageKeys<SearchRecord>(item, { keepEntity: true });

/**
 * The policies holding a token that begins with the word (each once), carrier-wide or of
 * one agency, with their number's order key: read from the token entries (keys only).
 */
export async function matchesByTokenPrefix(word: string, agencyId?: string): Promise<IndexedMatch[]> {
  const query = tokenPrefixQuery(table(), word, agencyId);
  const sortAttribute = agencyId ? 'gsi3sk' : 'gsi1sk';
  const items = await queryAll<Record<string, string>>(query);
  const matches = new Map<string, IndexedMatch>();
  for (const item of items) {
    const policyId = policyIdOfSearchKey(item.pk);
    if (!matches.has(policyId)) matches.set(policyId, { policyId, orderKey: item[sortAttribute].slice(item[sortAttribute].indexOf('#') + 1) });
  }
  return [...matches.values()];
}

/** Listing entries as matches: `<orderKey>#<policyId>` sort keys. */
function listed(items: Array<Record<string, string>>, sortAttribute: 'gsi2sk' | 'gsi3sk'): IndexedMatch[] {
  return items.map((item) => {
    const sort = item[sortAttribute];
    const listed: ListedFacts = {
      status: item.status ?? '',
      revisionState: item.revisionState ?? '',
      reviewState: item.reviewState ?? '',
      policyTypeId: item.policyTypeId ?? '',
      policyTypeName: item.policyTypeName ?? '',
    };
    return { policyId: policyIdOfSearchKey(item.pk), orderKey: sort.slice(0, sort.lastIndexOf('#')), listed };
  });
}

/** How many policies the index holds: the counter shards' added less removed (one small Query). */
export async function countPolicies(): Promise<number> {
  const shards = await queryAll<{ sk: string; count?: number }>(policyCountQuery(table()));
  return shards.reduce((total, shard) => total + (shard.sk.startsWith('REMOVED#') ? -1 : 1) * Number(shard.count ?? 0), 0);
}

/**
 * Policy ids `skip` to `skip + take` of every policy in number order, from the all-policies
 * listing (gsi1) read with Limit: the cost is the entries up to the page's end, not the book.
 */
export async function listedInNumberOrder(skip: number, take: number, order: 'asc' | 'desc'): Promise<string[]> {
  const ids: string[] = [];
  for await (const page of queryPages<Record<string, string>>({ ...allPoliciesListingQuery(table(), order), Limit: Math.min(skip + take, 1000) }, { maxItems: skip + take })) {
    for (const item of page.items) ids.push(policyIdOfSearchKey(item.pk));
  }
  return ids.slice(skip, skip + take);
}

/** Every policy of a status, from its listing entries. */
export async function listedWithStatus(status: string): Promise<IndexedMatch[]> {
  return listed(await queryAll<Record<string, string>>(statusListingQuery(table(), status)), 'gsi2sk');
}

/** Every policy of an agency, from its listing entries. */
export async function listedOfAgency(agencyId: string): Promise<IndexedMatch[]> {
  return listed(await queryAll<Record<string, string>>(agencyListingQuery(table(), agencyId)), 'gsi3sk');
}

/** Records by policy id (unknown ids left out; order not kept). Up to 100 per BatchGetItem, two at a time. */
export async function getSearchRecords(policyIds: readonly string[], options: { consistentRead?: boolean } = {}): Promise<SearchRecord[]> {
  const items = await batchGetAll<Record<string, unknown>>(policyIds.map(searchRecordKey), { concurrency: 2, ...options });
  return items.map(strip);
}

export async function getSearchRecord(policyId: string): Promise<SearchRecord | undefined> {
  return (await getSearchRecords([policyId], { consistentRead: true }))[0];
}
