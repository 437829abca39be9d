import { describe, expect, it } from 'vitest';
import { BusinessRuleError, ConcurrentChangeError } from '../../shared/platform/errors.js';
import {
  RecordChangedError,
  RecordTooLargeError,
  TRANSACTION_ITEM_LIMIT,
  TransactionTooLargeError,
  conflictBackoffCeilingMs,
  transactionRunner,
  withoutStorageKeys,
  type TransactionWrite,
} from '../../shared/platform/transactions.js';

const put = (pk: string): TransactionWrite => ({ Put: { TableName: 't', Item: { pk, sk: 'A' }, ConditionExpression: 'attribute_not_exists(pk)' } });
const update = (pk: string): TransactionWrite => ({ Update: { TableName: 't', Key: { pk, sk: 'A' }, UpdateExpression: 'SET a = :a', ExpressionAttributeValues: { ':a': 1 } } });

/** DynamoDB's answer to a cancelled transaction, as the SDK throws it. */
const cancelled = (...codes: string[]) =>
  Object.assign(new Error(`Transaction cancelled, please refer cancellation reasons for specific reasons [${codes.join(', ')}]`), {
    name: 'TransactionCanceledException',
    CancellationReasons: codes.map((Code) => ({ Code })),
  });

/** A runner whose sends answer the given failures in turn (then succeed), recording every send and wait. */
function scripted(...failures: unknown[]) {
  const sent: number[] = [];
  const waits: number[] = [];
  const run = transactionRunner({
    send: async (input) => {
      sent.push(input.TransactItems?.length ?? 0);
      const failure = failures.shift();
      if (failure) throw failure;
    },
    pause: async (ms) => void waits.push(ms),
    random: () => 0.5,
  });
  return { run, sent, waits };
}

describe('the transaction runner', () => {
  it('sends up to the limit in one call and refuses one write more before sending anything', async () => {
    const { run, sent } = scripted();
    await run(Array.from({ length: TRANSACTION_ITEM_LIMIT }, (_, index) => put(`P#${index}`)), { label: 'The thing' });
    expect(sent).toEqual([100]);
    const tooMany = run(Array.from({ length: TRANSACTION_ITEM_LIMIT + 1 }, (_, index) => put(`P#${index}`)), { label: 'The thing' });
    await expect(tooMany).rejects.toBeInstanceOf(TransactionTooLargeError);
    await expect(tooMany).rejects.toThrow('The change needs 101 writes; at most 100 fit one transaction');
    expect(sent).toEqual([100]);
  });

  it('lets a store word the refusal of a too large change in its own terms', async () => {
    const { run } = scripted();
    const refused = run(Array.from({ length: 101 }, (_, index) => put(`P#${index}`)), { label: 'x', tooLarge: (count) => new BusinessRuleError(`${count} is too many roles`) });
    await expect(refused).rejects.toThrow('101 is too many roles');
  });

  it('refuses, naming why, a change DynamoDB refused for making a record larger than it holds, without retrying', async () => {
    const tooBig = Object.assign(new Error('Item size to update has exceeded the maximum allowed size'), { name: 'ValidationException' });
    const inTransaction = Object.assign(cancelled('None', 'ValidationError'), { CancellationReasons: [{ Code: 'None' }, { Code: 'ValidationError', Message: 'Item size has exceeded the maximum allowed size' }] });
    for (const failure of [tooBig, inTransaction]) {
      const { run, sent } = scripted(failure);
      const refused = await run([put('A'), update('REVISION#7')], { label: 'Revision 7' }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(RecordTooLargeError);
      expect(refused).toBeInstanceOf(BusinessRuleError);
      expect((refused as Error).message).toBe('Revision 7 was not changed: a record would pass the 400 KB it can hold');
      expect(sent).toHaveLength(1);
    }
    const other = Object.assign(new Error('One or more parameter values were invalid'), { name: 'ValidationException' });
    await expect(scripted(other).run([put('A')], { label: 'x' })).rejects.toBe(other);
  });

  it('retries a transaction that only met another one, with jittered waits that grow', async () => {
    const { run, sent, waits } = scripted(cancelled('None', 'TransactionConflict'), cancelled('TransactionConflict', 'None'), Object.assign(new Error('conflict'), { name: 'TransactionConflictException' }));
    await run([put('A'), update('B')], { label: 'The account' });
    expect(sent).toEqual([2, 2, 2, 2]);
    expect(waits).toEqual([0.5 * conflictBackoffCeilingMs(0), 0.5 * conflictBackoffCeilingMs(1), 0.5 * conflictBackoffCeilingMs(2)]);
    expect(conflictBackoffCeilingMs(1)).toBeGreaterThan(conflictBackoffCeilingMs(0));
    expect(conflictBackoffCeilingMs(20)).toBe(500);
  });

  it('gives up on a transaction that keeps conflicting with a concurrent change', async () => {
    const { run, sent } = scripted(...Array.from({ length: 5 }, () => cancelled('TransactionConflict')));
    await expect(run([update('B')], { label: 'The account of policy P-1', maxAttempts: 3 })).rejects.toThrow('The account of policy P-1 was changed by another request; reload it and try again');
    expect(sent).toHaveLength(3);
  });

  it('maps a failed condition to an error naming the record that changed, without retrying', async () => {
    const { run, sent } = scripted(cancelled('None', 'ConditionalCheckFailed', 'TransactionConflict'));
    const failure = await run([put('A'), update('REVISION#7'), put('C')], { label: 'Revision 7' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RecordChangedError);
    expect(failure).toBeInstanceOf(ConcurrentChangeError);
    expect(failure).toMatchObject({ index: 1, key: { pk: 'REVISION#7', sk: 'A' }, message: 'Revision 7 was changed by another request; reload it and try again' });
    expect(sent).toHaveLength(1);
  });

  it('lets the store that built the writes say what a failed condition means', async () => {
    class CheckAlreadyPosted extends BusinessRuleError {}
    const { run } = scripted(cancelled('None', 'None', 'ConditionalCheckFailed'));
    const onConditionFailed = ({ indexes }: { indexes: number[] }) => (indexes.includes(2) ? new CheckAlreadyPosted('Check 101 was already posted') : undefined);
    await expect(run([update('ACCOUNT'), put('ROW'), put('CHECK#101')], { label: 'The account', onConditionFailed })).rejects.toBeInstanceOf(CheckAlreadyPosted);
    const other = scripted(cancelled('ConditionalCheckFailed', 'None', 'None'));
    await expect(other.run([update('ACCOUNT'), put('ROW'), put('CHECK#101')], { label: 'The account', onConditionFailed })).rejects.toBeInstanceOf(RecordChangedError);
  });

  it('reads the reasons a server gives only in its message', async () => {
    const { run } = scripted(Object.assign(new Error('Transaction cancelled [None, ConditionalCheckFailed]'), { name: 'TransactionCanceledException' }));
    await expect(run([put('A'), put('B')], { label: 'x' })).rejects.toMatchObject({ index: 1, key: { pk: 'B', sk: 'A' } });
  });

  it('passes any other failure through as it came', async () => {
    const broken = new Error('socket hang up');
    await expect(scripted(broken).run([put('A')], { label: 'x' })).rejects.toBe(broken);
    const invalid = cancelled('ValidationError');
    await expect(scripted(invalid).run([put('A')], { label: 'x' })).rejects.toBe(invalid);
  });

  it('sends nothing for no writes', async () => {
    const { run, sent } = scripted();
    await run([], { label: 'x' });
    expect(sent).toEqual([]);
  });
});

describe('withoutStorageKeys', () => {
  it('drops table and index keys and the entity tag, unless the record keeps its tag', () => {
    const item = { pk: 'A', sk: 'B', gsi1pk: 'C', gsi1sk: 'D', gsi2pk: 'E', gsi2sk: 'F', entity: 'Thing', id: '1', gsi: 'kept' };
    expect(withoutStorageKeys(item)).toEqual({ id: '1', gsi: 'kept' });
    expect(withoutStorageKeys(item, { keepEntity: true })).toEqual({ entity: 'Thing', id: '1', gsi: 'kept' });
  });
});
