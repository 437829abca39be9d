/**
 * Putting a product version in force: its catalog records and its version record written so
 * that a failure midway leaves nothing published. The whole package fits one DynamoDB
 * transaction (the shipped one is some 55 records; a transaction takes 100): written in one,
 * the version and its catalog appear together or not at all. A package too large for one is
 * written in batches with the version record last, and its rate versions stay unpublished
 * until then (publish.ts treats a rate version whose product version was never recorded as not
 * published, so the same file sent again finishes the job).
 */
import { config } from '../platform/config.js';
import { batchWriteAll } from '../platform/dynamo.js';
import { runTransaction, TRANSACTION_ITEM_LIMIT, type TransactionWrite } from '../platform/transactions.js';
import { productVersionRecord } from './records.js';
import type { CatalogRecord } from './package-record-store.js';
import { forgetCatalogCache, putProductVersion, type ProductVersionRecord } from './store.js';

export async function publishProductVersion(record: ProductVersionRecord, records: readonly CatalogRecord[]): Promise<void> {
  const table = config.tableName();
  const versionPut = productVersionRecord.create(record);
  try {
    if (records.length + 1 <= TRANSACTION_ITEM_LIMIT) {
      await runTransaction([...records.map((Item): TransactionWrite => ({ Put: { TableName: table, Item } })), versionPut], { label: `Product version ${record.versionId}` });
      return;
    }
    // Too large for one transaction: the product's other records first, its new rate versions next, the version record last.
    const [rates, others] = [records.filter((item) => item.kind === 'RATEVERSION'), records.filter((item) => item.kind !== 'RATEVERSION')];
    await batchWriteAll(others.map((Item) => ({ PutRequest: { Item } })));
    await batchWriteAll(rates.map((Item) => ({ PutRequest: { Item } })));
    await putProductVersion(record, 'new');
  } finally {
    forgetCatalogCache();
  }
}
