import { BatchGetCommand, BatchWriteCommand, DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  batchGetAll,
  batchWriteAll,
  distinctKeys,
  inChunks,
  isConditionalCheckFailure,
  queryAll,
  queryPages,
  MAX_BATCH_ATTEMPTS,
  retryDelayMs,
  transactionCancellationReasons,
} from '../../shared/platform/dynamo.js';

const TABLE = 'unit-dynamo-helpers';

beforeAll(() => {
  process.env.TABLE_NAME = TABLE;
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** Answers each call of the document client with the next of `answers`, and records the commands sent. */
function scriptedClient(answers: Array<Record<string, unknown>>) {
  const sent: unknown[] = [];
  vi.spyOn(DynamoDBDocumentClient.prototype, 'send').mockImplementation((async (command: unknown) => {
    sent.push(command);
    const answer = answers.shift();
    if (!answer) throw new Error('no scripted answer left');
    return answer;
  }) as never);
  return sent;
}

describe('chunking and retry pacing', () => {
  it('cuts a list into chunks of the given size, the last one shorter', () => {
    expect(inChunks([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(inChunks([], 25)).toEqual([]);
  });

  it('waits longer after each short answer, never more than a second', () => {
    expect([0, 1, 2, 3, 4, 5, 10].map(retryDelayMs)).toEqual([50, 100, 200, 400, 800, 1000, 1000]);
  });

  it('drops a key named twice, whatever the order of its attributes', () => {
    const keys = [
      { pk: 'A', sk: '1' },
      { sk: '1', pk: 'A' },
      { pk: 'A', sk: '2' },
    ];
    expect(distinctKeys(keys)).toEqual([
      { pk: 'A', sk: '1' },
      { pk: 'A', sk: '2' },
    ]);
  });
});

describe('reading why a transaction was cancelled', () => {
  it('answers the code of each item, None for items that did not fail', () => {
    const error = Object.assign(new Error('Transaction cancelled'), {
      name: 'TransactionCanceledException',
      CancellationReasons: [{ Code: 'None' }, { Code: 'ConditionalCheckFailed' }, {}],
    });
    expect(transactionCancellationReasons(error)).toEqual(['None', 'ConditionalCheckFailed', 'None']);
  });

  it('reads the codes from the message when the server gives them only there', () => {
    const error = Object.assign(
      new Error('Transaction cancelled, please refer cancellation reasons for specific reasons [ConditionalCheckFailed, None]'),
      { name: 'TransactionCanceledException' },
    );
    expect(transactionCancellationReasons(error)).toEqual(['ConditionalCheckFailed', 'None']);
    expect(transactionCancellationReasons(Object.assign(new Error('cancelled'), { name: 'TransactionCanceledException' }))).toEqual([]);
  });

  it('answers undefined for any other error', () => {
    expect(transactionCancellationReasons(new Error('boom'))).toBeUndefined();
    expect(transactionCancellationReasons(undefined)).toBeUndefined();
    expect(transactionCancellationReasons(Object.assign(new Error('x'), { name: 'ConditionalCheckFailedException' }))).toBeUndefined();
  });

  it('tells a failed single-item condition from other errors', () => {
    expect(isConditionalCheckFailure(Object.assign(new Error('x'), { name: 'ConditionalCheckFailedException' }))).toBe(true);
    expect(isConditionalCheckFailure(Object.assign(new Error('x'), { name: 'TransactionCanceledException' }))).toBe(false);
    expect(isConditionalCheckFailure(null)).toBe(false);
  });
});

describe('paging a Query', () => {
  it('follows LastEvaluatedKey to the end on the configured table, keeping the caller’s parameters', async () => {
    const sent = scriptedClient([
      { Items: [{ n: 1 }, { n: 2 }], Count: 2, LastEvaluatedKey: { pk: 'P', sk: '2' } },
      { Items: [{ n: 3 }], Count: 1 },
    ]);
    const items = await queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'P' }, ConsistentRead: true });
    expect(items).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    const inputs = sent.map((command) => (command as QueryCommand).input);
    expect(sent.every((command) => command instanceof QueryCommand)).toBe(true);
    expect(inputs[0]).toMatchObject({ TableName: TABLE, KeyConditionExpression: 'pk = :pk', ConsistentRead: true });
    expect(inputs[0].ExclusiveStartKey).toBeUndefined();
    expect(inputs[0].Limit).toBeUndefined();
    expect(inputs[1].ExclusiveStartKey).toEqual({ pk: 'P', sk: '2' });
  });

  it('uses a table named in the input instead of the configured one', async () => {
    const sent = scriptedClient([{ Items: [], Count: 0 }]);
    await queryAll({ TableName: 'other-table', KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'P' } });
    expect((sent[0] as QueryCommand).input.TableName).toBe('other-table');
  });

  it('reads no further page once the caller stops', async () => {
    const sent = scriptedClient([
      { Items: [{ n: 1 }], Count: 1, LastEvaluatedKey: { pk: 'P', sk: '1' } },
      { Items: [{ n: 2 }], Count: 1, LastEvaluatedKey: { pk: 'P', sk: '2' } },
    ]);
    for await (const page of queryPages({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'P' } })) {
      expect(page.items).toEqual([{ n: 1 }]);
      break;
    }
    expect(sent).toHaveLength(1);
  });

  it('asks each page for no more than remain of maxItems, counting COUNT pages by their count', async () => {
    const sent = scriptedClient([
      { Count: 4, LastEvaluatedKey: { pk: 'P', sk: '4' } },
      { Count: 6, LastEvaluatedKey: { pk: 'P', sk: '10' } },
    ]);
    const pages = [];
    for await (const page of queryPages(
      { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'P' }, Select: 'COUNT' },
      { maxItems: 10, startKey: { pk: 'P', sk: '0' } },
    )) {
      pages.push(page);
    }
    expect(pages.map((page) => page.count)).toEqual([4, 6]);
    expect(pages[1].lastEvaluatedKey).toEqual({ pk: 'P', sk: '10' });
    const inputs = sent.map((command) => (command as QueryCommand).input);
    expect(inputs.map((input) => input.Limit)).toEqual([10, 6]);
    expect(inputs[0].ExclusiveStartKey).toEqual({ pk: 'P', sk: '0' });
  });

  it('keeps the input’s own Limit as the page size while maxItems allows it', async () => {
    const sent = scriptedClient([
      { Items: [{}, {}, {}], Count: 3, LastEvaluatedKey: { pk: 'P', sk: '3' } },
      { Items: [{}, {}], Count: 2, LastEvaluatedKey: { pk: 'P', sk: '5' } },
    ]);
    const items = [];
    for await (const page of queryPages({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'P' }, Limit: 3 }, { maxItems: 5 })) {
      items.push(...page.items);
    }
    expect(items).toHaveLength(5);
    expect(sent.map((command) => (command as QueryCommand).input.Limit)).toEqual([3, 2]);
  });

  it('never asks for more than a 32-bit Limit, however far maxItems reaches', async () => {
    const sent = scriptedClient([{ Items: [], Count: 0 }]);
    for await (const _page of queryPages({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'P' }, Select: 'COUNT' }, { maxItems: 1e10 })) {
      // counting only
    }
    expect(sent.map((command) => (command as QueryCommand).input.Limit)).toEqual([2 ** 31 - 1]);
  });

  it('reads nothing when maxItems is 0', async () => {
    const sent = scriptedClient([]);
    for await (const _page of queryPages({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'P' } }, { maxItems: 0 })) {
      throw new Error('no page expected');
    }
    expect(sent).toHaveLength(0);
  });
});

describe('batch reads and writes', () => {
  it('retries the keys DynamoDB leaves unprocessed, with the same read options', async () => {
    const sent = scriptedClient([
      {
        Responses: { [TABLE]: [{ id: 'a' }] },
        UnprocessedKeys: { [TABLE]: { Keys: [{ pk: 'B', sk: 'X' }] } },
      },
      { Responses: { [TABLE]: [{ id: 'b' }] } },
    ]);
    const items = await batchGetAll(
      [
        { pk: 'A', sk: 'X' },
        { pk: 'B', sk: 'X' },
        { pk: 'A', sk: 'X' },
      ],
      { consistentRead: true, projection: { expression: 'id, #name', names: { '#name': 'name' } } },
    );
    expect(items).toEqual([{ id: 'a' }, { id: 'b' }]);
    expect(sent.every((command) => command instanceof BatchGetCommand)).toBe(true);
    const requests = sent.map((command) => (command as BatchGetCommand).input.RequestItems?.[TABLE]);
    expect(requests[0]).toEqual({
      Keys: [
        { pk: 'A', sk: 'X' },
        { pk: 'B', sk: 'X' },
      ],
      ConsistentRead: true,
      ProjectionExpression: 'id, #name',
      ExpressionAttributeNames: { '#name': 'name' },
    });
    expect(requests[1]).toEqual({
      Keys: [{ pk: 'B', sk: 'X' }],
      ConsistentRead: true,
      ProjectionExpression: 'id, #name',
      ExpressionAttributeNames: { '#name': 'name' },
    });
  });

  it('sends no read options the caller did not ask for', async () => {
    const sent = scriptedClient([{ Responses: { [TABLE]: [] } }]);
    await batchGetAll([{ pk: 'A', sk: 'X' }]);
    expect((sent[0] as BatchGetCommand).input.RequestItems?.[TABLE]).toEqual({ Keys: [{ pk: 'A', sk: 'X' }] });
  });

  it('makes no call for no keys and no writes', async () => {
    const sent = scriptedClient([]);
    expect(await batchGetAll([])).toEqual([]);
    await batchWriteAll([]);
    expect(sent).toHaveLength(0);
  });

  it('gives up with an error, rather than hanging the request, when DynamoDB keeps throttling', async () => {
    vi.useFakeTimers();
    try {
      const throttled = { UnprocessedItems: { [TABLE]: [{ PutRequest: { Item: { pk: 'P', sk: '1' } } }] } };
      const sent = scriptedClient(Array.from({ length: MAX_BATCH_ATTEMPTS + 1 }, () => structuredClone(throttled)));
      const outcome = batchWriteAll([{ PutRequest: { Item: { pk: 'P', sk: '1' } } }]).catch((error: Error) => error);
      await vi.runAllTimersAsync();
      expect(await outcome).toBeInstanceOf(Error);
      expect(((await outcome) as Error).message).toMatch(/1 items unprocessed after 12 attempts/);
      expect(sent).toHaveLength(MAX_BATCH_ATTEMPTS);
    } finally {
      vi.useRealTimers();
    }
  });

  it('writes 25 requests per call and retries the unprocessed ones', async () => {
    const requests = Array.from({ length: 30 }, (_, n) => ({ PutRequest: { Item: { pk: 'P', sk: String(n) } } }));
    const sent = scriptedClient([
      { UnprocessedItems: { [TABLE]: [requests[3]] } },
      { UnprocessedItems: {} },
      {},
    ]);
    await batchWriteAll([...requests.slice(0, 29), { DeleteRequest: { Key: { pk: 'P', sk: 'old' } } }]);
    expect(sent.every((command) => command instanceof BatchWriteCommand)).toBe(true);
    const batches = sent.map((command) => (command as BatchWriteCommand).input.RequestItems?.[TABLE] ?? []);
    expect(batches.map((batch) => batch.length)).toEqual([25, 1, 5]);
    expect(batches[1]).toEqual([requests[3]]);
    expect(batches[2][4]).toEqual({ DeleteRequest: { Key: { pk: 'P', sk: 'old' } } });
  });
});
