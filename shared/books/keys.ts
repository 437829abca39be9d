/**
 * The books area's keys: the only code that knows them.
 *
 * - A month's aggregates share `BOOKS#MONTH#<YYYY-MM>`, one item per group and shard
 *   (`AGG#<kind>#<shard>#<state>|<line>|<policy type>|<agency>|<rate version>`): a report
 *   queries the months it shows, never the book. Shards spread the moves of one group over
 *   several items, so that concurrent moves rarely meet on one.
 * - The journal's day counters live on the same items, as `<counter>/<DD>`.
 * - A term's earning record: `BOOKS#TERM#<term>` / `EARNING`; while it still earns it is listed
 *   on gsi1 under `BOOKS#EARNING#<bucket>` (sparse: it leaves once fully earned).
 * - The closed months: `BOOKS#CLOSE` / `CLOSE` (closed through a month); each closing's
 *   balances: `BOOKS#MONTH#<YYYY-MM>` / `CLOSED#<state>|...` (the figures frozen at close).
 * - A claim's money is kept beside premium in the same month partitions, on items of its own
 *   kind (`LOSS#<kind>#<shard>#<state>|<line>|<policy type>|<agency>|<catastrophe>|<accident year>`,
 *   sharded by claim), so the premium report's query (`AGG#`) never reads them and the loss
 *   report reads a month in two queries; a closing's running loss totals are `LOSS_CLOSED#<group>`.
 * - The fence of the months closed through one (`BOOKS#FENCE#<YYYY-MM>`, or `BOOKS#FENCE#NONE`
 *   before the first close) / `SHARD#<n>`: written by the next close, it says that state is over;
 *   a counter landing in an ended month checks the fence of the state it settled on is absent.
 */
import type { BooksGroup, LossGroup } from './model.js';

export const SHARDS = 4;
export const EARNING_BUCKETS = 4;

const groupText = (group: BooksGroup) => [group.state, group.line, group.policyType, group.agency, group.rateVersion].join('|');

export const monthPartition = (month: string) => `BOOKS#MONTH#${month}`;
export const aggregateKey = (month: string, kind: 'current' | 'adjustment', shard: number, group: BooksGroup) => ({ pk: monthPartition(month), sk: `AGG#${kind}#${shard}#${groupText(group)}` });
export const monthAggregatesQuery = (month: string) => ({
  KeyConditionExpression: 'pk = :pk AND begins_with(sk, :agg)',
  ExpressionAttributeValues: { ':pk': monthPartition(month), ':agg': 'AGG#' },
  ConsistentRead: true,
});
export const closingKey = (month: string, group: BooksGroup) => ({ pk: monthPartition(month), sk: `CLOSED#${groupText(group)}` });
export const closingsQuery = (month: string) => ({
  KeyConditionExpression: 'pk = :pk AND begins_with(sk, :closed)',
  ExpressionAttributeValues: { ':pk': monthPartition(month), ':closed': 'CLOSED#' },
  ConsistentRead: true,
});

const lossGroupText = (group: LossGroup) => [group.state, group.line, group.policyType, group.agency, group.catastrophe, group.accidentYear].join('|');

export const lossAggregateKey = (month: string, kind: 'current' | 'adjustment', shard: number, group: LossGroup) => ({ pk: monthPartition(month), sk: `LOSS#${kind}#${shard}#${lossGroupText(group)}` });
export const monthLossAggregatesQuery = (month: string) => ({
  KeyConditionExpression: 'pk = :pk AND begins_with(sk, :loss)',
  ExpressionAttributeValues: { ':pk': monthPartition(month), ':loss': 'LOSS#' },
  ConsistentRead: true,
});
export const lossClosingKey = (month: string, group: LossGroup) => ({ pk: monthPartition(month), sk: `LOSS_CLOSED#${lossGroupText(group)}` });
export const lossClosingsQuery = (month: string) => ({
  KeyConditionExpression: 'pk = :pk AND begins_with(sk, :closed)',
  ExpressionAttributeValues: { ':pk': monthPartition(month), ':closed': 'LOSS_CLOSED#' },
  ConsistentRead: true,
});

export const termEarningKey = (termId: string) => ({ pk: `BOOKS#TERM#${termId}`, sk: 'EARNING' });
export const earningListing = (bucket: number, lastDay: string, termId: string) => ({ gsi1pk: `BOOKS#EARNING#${bucket}`, gsi1sk: `${lastDay}#${termId}` });
export const earningQuery = (bucket: number) => ({
  IndexName: 'gsi1',
  KeyConditionExpression: 'gsi1pk = :pk',
  ExpressionAttributeValues: { ':pk': `BOOKS#EARNING#${bucket}` },
});

export const closeKey = () => ({ pk: 'BOOKS#CLOSE', sk: 'CLOSE' });

/**
 * Fence shards of a month: a move's guard checks one (its policy's), a close writes them all. More
 * than the aggregates' shards, so that the moves of different groups landing in an ended month
 * rarely meet on one fence.
 */
export const FENCE_SHARDS = 16;
export const closeFenceKey = (closedThrough: string | null, shard: number) => ({ pk: `BOOKS#FENCE#${closedThrough ?? 'NONE'}`, sk: `SHARD#${String(shard).padStart(2, '0')}` });

/** A stable shard of a policy: its moves meet on one item, other policies' on others. */
export function shardOf(id: string, shards: number): number {
  let hash = 0;
  for (let index = 0; index < id.length; index += 1) hash = (hash * 31 + id.charCodeAt(index)) >>> 0;
  return hash % shards;
}
