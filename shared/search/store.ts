/**
 * The search store: the only code that reads the search index's keys. Reads go by
 * key or by index Query, never Scan: a search word reads the token items it prefixes,
 * a listing reads one status's or one agency's records.
 */
import { batchGetAll, queryAll } from '../platform/dynamo.js';
import { withoutStorageKeys } from '../platform/transactions.js';
import { config } from '../platform/config.js';
import { agencyListingQuery, searchRecordKey, statusListingQuery, tokenPrefixQuery } from './keys.js';
import type { SearchRecord } from './model.js';

const table = () => config.tableName();

/** Drops the storage-only attributes (keys, index keys). */
const strip = (item: Record<string, unknown>): SearchRecord => withoutStorageKeys<SearchRecord>(item, { keepEntity: true });

/** Ids of the policies holding a token that begins with the word (each once). */
export async function policyIdsByTokenPrefix(word: string): Promise<string[]> {
  const items = await queryAll<{ policyId: string }>(tokenPrefixQuery(table(), word));
  return [...new Set(items.map((item) => item.policyId))];
}

/** Records by policy id (unknown ids left out; order not kept). Up to 100 per BatchGetItem, two at a time. */
export async function getSearchRecords(policyIds: readonly string[], options: { consistentRead?: boolean } = {}): Promise<SearchRecord[]> {
  const items = await batchGetAll<Record<string, unknown>>(policyIds.map(searchRecordKey), { concurrency: 2, ...options });
  return items.map(strip);
}

export async function getSearchRecord(policyId: string): Promise<SearchRecord | undefined> {
  return (await getSearchRecords([policyId], { consistentRead: true }))[0];
}

/** Every record of a status. */
export async function recordsWithStatus(status: string): Promise<SearchRecord[]> {
  return (await queryAll<Record<string, unknown>>(statusListingQuery(table(), status))).map(strip);
}

/** Every record of an agency. */
export async function recordsOfAgency(agencyId: string): Promise<SearchRecord[]> {
  return (await queryAll<Record<string, unknown>>(agencyListingQuery(table(), agencyId))).map(strip);
}
