/**
 * Counter writes (platform/transactions.ts): the books' counters of one move that land on one
 * item are sent as one Update (DynamoDB refuses a transaction naming an item twice), settled at
 * commit (a closed month's counters moved to the open month), and a failed condition still names
 * the write given.
 */
import { describe, expect, it } from 'vitest';
import { counterWrite, RecordChangedError, settledWrites, transactionRunner, type TransactionWrite } from '../../shared/platform/transactions.js';

const key = (sk: string) => ({ pk: 'BOOKS#MONTH#2025-01', sk });
const put: TransactionWrite = { Put: { TableName: 't', Item: { pk: 'P', sk: 'S' }, ConditionExpression: 'attribute_not_exists(pk)' } };

describe('counter writes', () => {
  it('merges the counters of one item into one Update, after every other write, dropping sums of zero', async () => {
    const { writes, origin } = await settledWrites([
      counterWrite({ tableName: 't', key: key('A'), counters: { billed: 100, earned: 5 } }),
      put,
      counterWrite({ tableName: 't', key: key('A'), counters: { billed: 50, earned: -5 } }),
      counterWrite({ tableName: 't', key: key('B'), counters: { billed: 1 } }),
    ]);
    expect(writes).toHaveLength(3);
    expect(writes[0]).toBe(put);
    expect(origin).toEqual([1, 0, 3]);
    expect(writes[1].Update).toMatchObject({ Key: key('A'), UpdateExpression: 'ADD #c0 :c0', ExpressionAttributeNames: { '#c0': 'billed' }, ExpressionAttributeValues: { ':c0': 150 } });
  });

  it('lands a counter where its settle says, or nowhere', async () => {
    const { writes } = await settledWrites([
      counterWrite({ tableName: 't', key: key('A'), counters: { billed: 1 }, settle: async () => ({ key: { pk: 'BOOKS#MONTH#2025-02', sk: 'A' }, fields: { kind: 'adjustment' } }) }),
      counterWrite({ tableName: 't', key: key('M'), counters: {}, fields: { entity: 'BooksMonth' }, settle: async () => null }),
    ]);
    expect(writes).toHaveLength(1);
    expect(writes[0].Update?.Key).toEqual({ pk: 'BOOKS#MONTH#2025-02', sk: 'A' });
    expect(writes[0].Update?.UpdateExpression).toBe('ADD #c0 :c0 SET #f0 = if_not_exists(#f0, :f0)');
  });

  it('names the write given when a condition fails', async () => {
    const cancelled = Object.assign(new Error('cancelled'), { name: 'TransactionCanceledException', CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }] });
    const run = transactionRunner({ send: async () => { throw cancelled; } });
    const error = await run([counterWrite({ tableName: 't', key: key('A'), counters: { billed: 1 } }), put], { label: 'x' }).catch((caught) => caught);
    expect(error).toBeInstanceOf(RecordChangedError);
    expect(error.index).toBe(1);
    expect(error.key).toEqual({ pk: 'P', sk: 'S' });
  });
});
