/**
 * Storing rated figures. A revision small enough for one transaction is changed in one
 * (guarded by its version and open state, as every change of a revision). A larger one is
 * an idempotent sequence: chunks of item writes, each checking that the revision is still
 * at the version read and open, then the header with its totals, which raises the version.
 * A sequence cut short leaves items rated and totals unrated; running it again completes it.
 */
import { config } from '../platform/config.js';
import { inChunks } from '../platform/dynamo.js';
import { runTransaction, TRANSACTION_ITEM_LIMIT } from '../platform/transactions.js';
import { partKey, revisionKey } from './keys.js';
import type { LineItemRecord, RevisionRecord } from './model.js';
import { RevisionNotOpenError, changeRevision } from './store.js';

/** Items per transaction beside the revision's guard. */
const ONE_TRANSACTION = TRANSACTION_ITEM_LIMIT - 1;

export async function storeRatedItems(
  header: RevisionRecord,
  items: readonly LineItemRecord[],
  set: Partial<Omit<RevisionRecord, 'id' | 'version' | 'entity'>>,
): Promise<RevisionRecord> {
  // A revision with its parts in one record takes any number of rated items in one write of that record.
  if (header.partsInOneRecord || items.length <= ONE_TRANSACTION) return changeRevision(header, { header: set, replace: [...items] });
  const table = config.tableName();
  for (const chunk of inChunks(items, ONE_TRANSACTION)) {
    const writes = [
      {
        ConditionCheck: {
          TableName: table,
          Key: revisionKey(header.id),
          ConditionExpression: '#version = :expected AND #state = :open',
          ExpressionAttributeNames: { '#version': 'version', '#state': 'revisionState' },
          ExpressionAttributeValues: { ':expected': header.version, ':open': 'open' },
        },
      },
      ...chunk.map((item) => ({ Put: { TableName: table, Item: { ...partKey(item), ...item }, ConditionExpression: 'attribute_exists(pk)' } })),
    ];
    await runTransaction(writes, {
      label: `Revision ${header.id}`,
      onConditionFailed: (failure) => (failure.index === 0 && header.revisionState !== 'open' ? new RevisionNotOpenError(header.id, header.revisionState) : undefined),
    });
  }
  return changeRevision(header, { header: set });
}
