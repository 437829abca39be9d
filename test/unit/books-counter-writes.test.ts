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

  it('sends a landing\'s guard once, after the counters, and names it as the counter it came with', async () => {
    const guard: TransactionWrite = { ConditionCheck: { TableName: 't', Key: { pk: 'BOOKS#FENCE#NONE', sk: 'SHARD#03' }, ConditionExpression: 'attribute_not_exists(pk)' } };
    const { writes, origin, guards } = await settledWrites([
      put,
      counterWrite({ tableName: 't', key: key('A'), counters: { billed: 1 }, settle: async (write) => ({ key: write.key, guard }) }),
      counterWrite({ tableName: 't', key: key('B'), counters: { billed: 2 }, settle: async (write) => ({ key: write.key, guard }) }),
    ]);
    expect(writes.map((write) => Object.keys(write)[0])).toEqual(['Put', 'Update', 'Update', 'ConditionCheck']);
    expect(writes[3]).toBe(guard);
    expect(origin).toEqual([0, 1, 2, 1]);
    expect([...guards]).toEqual([3]);
  });

  it('settles the counters afresh and sends again when only a guard failed (the month closed meanwhile), and not otherwise', async () => {
    const settles: boolean[] = [];
    const counter = () =>
      counterWrite({
        tableName: 't', key: key('A'), counters: { billed: 1 },
        settle: async (_write, { fresh }) => {
          settles.push(fresh);
          return fresh
            ? { key: { pk: 'BOOKS#MONTH#2025-02', sk: 'A' } }
            : { key: key('A'), guard: { ConditionCheck: { TableName: 't', Key: { pk: 'BOOKS#FENCE#NONE', sk: 'SHARD#00' }, ConditionExpression: 'attribute_not_exists(pk)' } } };
        },
      });
    const cancelledAt = (failed: number[], of: number) => Object.assign(new Error('cancelled'), { name: 'TransactionCanceledException', CancellationReasons: Array.from({ length: of }, (_, index) => ({ Code: failed.includes(index) ? 'ConditionalCheckFailed' : 'None' })) });
    const sent: TransactionWrite[][] = [];
    const run = transactionRunner({ send: async (input) => { sent.push([...input.TransactItems!]); if (sent.length === 1) throw cancelledAt([2], 3); } });
    await run([put, counter()], { label: 'x' });
    expect(settles).toEqual([false, true]);
    expect(sent[1].map((write) => write.Update?.Key ?? write.Put?.Item?.pk)).toEqual(['P', { pk: 'BOOKS#MONTH#2025-02', sk: 'A' }]);

    // A guard failing beside another write's condition: the other write's failure is what is answered.
    const both = transactionRunner({ send: async () => { throw cancelledAt([0, 2], 3); } });
    const error = await both([put, counter()], { label: 'x' }).catch((caught) => caught);
    expect(error).toBeInstanceOf(RecordChangedError);
    expect(error.index).toBe(0);
  });
});
