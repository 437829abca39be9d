/**
 * The shared DynamoDB helpers against the embedded DynamoDB: pages past 1 MB, batch
 * reads past 100 keys, batch writes past 25 requests, and a real cancelled transaction.
 */
import { randomUUID } from 'node:crypto';
import { BatchGetCommand, BatchWriteCommand, DynamoDBDocumentClient, PutCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { documentClient } from '../../shared/platform/clients.js';
import { config } from '../../shared/platform/config.js';
import {
  batchGetAll,
  batchWriteAll,
  isConditionalCheckFailure,
  queryAll,
  queryPages,
  transactionCancellationReasons,
} from '../../shared/platform/dynamo.js';
import { startTestService, type TestService } from '../support/service.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service.stop();
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** Counts the commands of each kind the document client sends, still sending them. */
function countCalls() {
  const send = vi.spyOn(DynamoDBDocumentClient.prototype, 'send');
  return (kind: new (...args: never[]) => unknown) => send.mock.calls.filter(([command]) => command instanceof kind).length;
}

const partitionQuery = (pk: string) => ({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk } });
const sortKey = (n: number) => `ITEM#${String(n).padStart(4, '0')}`;

describe('a Query larger than one 1 MB page', () => {
  const pk = `HELPERTEST#${randomUUID()}`;
  const ITEMS = 80;
  // ~30 KB each: 80 of them are ~2.4 MB, three pages at the least.
  const payload = (n: number) => `${n}:`.padEnd(30_000, 'x');

  beforeAll(async () => {
    await batchWriteAll(Array.from({ length: ITEMS }, (_, n) => ({ PutRequest: { Item: { pk, sk: sortKey(n), payload: payload(n) } } })));
  });

  it('comes back whole and in order from queryAll', async () => {
    const calls = countCalls();
    const items = await queryAll(partitionQuery(pk));
    expect(items).toHaveLength(ITEMS);
    expect(items.map((item) => item.sk)).toEqual(Array.from({ length: ITEMS }, (_, n) => sortKey(n)));
    expect(items.every((item, n) => item.payload === payload(n))).toBe(true);
    expect(calls(QueryCommand)).toBeGreaterThanOrEqual(3);
  });

  it('is served page by page by queryPages, each page ending where the next starts', async () => {
    const pages = [];
    for await (const page of queryPages(partitionQuery(pk))) pages.push(page);
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(pages.slice(0, -1).every((page) => page.lastEvaluatedKey?.sk === page.items.at(-1)?.sk)).toBe(true);
    expect(pages.at(-1)?.lastEvaluatedKey).toBeUndefined();
    expect(pages.reduce((total, page) => total + page.items.length, 0)).toBe(ITEMS);
  });
});

describe('bounded and resumed Queries', () => {
  const pk = `HELPERTEST#${randomUUID()}`;
  const ITEMS = 60;

  beforeAll(async () => {
    await batchWriteAll(Array.from({ length: ITEMS }, (_, n) => ({ PutRequest: { Item: { pk, sk: sortKey(n) } } })));
  });

  it('skips with COUNT pages, then reads the next items from where the count stopped', async () => {
    let startKey: Record<string, unknown> | undefined;
    let skipped = 0;
    for await (const page of queryPages({ ...partitionQuery(pk), Select: 'COUNT', Limit: 7 }, { maxItems: 20 })) {
      skipped += page.count;
      startKey = page.lastEvaluatedKey;
    }
    expect(skipped).toBe(20);
    const read = [];
    for await (const page of queryPages({ ...partitionQuery(pk), Limit: 4 }, { startKey, maxItems: 10 })) read.push(...page.items);
    expect(read.map((item) => item.sk)).toEqual(Array.from({ length: 10 }, (_, n) => sortKey(20 + n)));
  });

  it('stops reading when the caller has what it needs', async () => {
    const calls = countCalls();
    for await (const page of queryPages({ ...partitionQuery(pk), Limit: 5 })) {
      expect(page.items).toHaveLength(5);
      break;
    }
    expect(calls(QueryCommand)).toBe(1);
  });
});

describe('batch reads and writes past DynamoDB’s per-call limits', () => {
  const pk = `HELPERTEST#${randomUUID()}`;
  const ITEMS = 250;

  it('writes 250 items 25 per call, reads them back 100 keys per call, and deletes 30', async () => {
    const calls = countCalls();
    await batchWriteAll(Array.from({ length: ITEMS }, (_, n) => ({ PutRequest: { Item: { pk, sk: sortKey(n), id: n, name: `insured ${n}` } } })));
    expect(calls(BatchWriteCommand)).toBeGreaterThanOrEqual(10);

    const keys = Array.from({ length: ITEMS }, (_, n) => ({ pk, sk: sortKey(n) }));
    const missing = Array.from({ length: 5 }, (_, n) => ({ pk, sk: `ABSENT#${n}` }));
    const items = await batchGetAll([...keys, ...missing, ...keys.slice(0, 10)], { consistentRead: true });
    expect(items).toHaveLength(ITEMS);
    expect(new Set(items.map((item) => item.id))).toEqual(new Set(Array.from({ length: ITEMS }, (_, n) => n)));
    expect(calls(BatchGetCommand)).toBeGreaterThanOrEqual(3);

    await batchWriteAll(keys.slice(0, 30).map((Key) => ({ DeleteRequest: { Key } })), { concurrency: 2 });
    const left = await queryAll({ ...partitionQuery(pk), ConsistentRead: true });
    expect(left.map((item) => item.sk)).toEqual(keys.slice(30).map((key) => key.sk));
  });

  it('reads only the projected attributes, names standing for reserved words', async () => {
    const items = await batchGetAll(
      Array.from({ length: 120 }, (_, n) => ({ pk, sk: sortKey(100 + n) })),
      { projection: { expression: 'id, #name', names: { '#name': 'name' } }, concurrency: 2 },
    );
    expect(items).toHaveLength(120);
    expect(items.find((item) => item.id === 150)).toEqual({ id: 150, name: 'insured 150' });
  });
});

describe('failed conditions on the real server', () => {
  it('names the item of a cancelled transaction whose condition failed', async () => {
    const pk = `HELPERTEST#${randomUUID()}`;
    await documentClient().send(new PutCommand({ TableName: config.tableName(), Item: { pk, sk: 'TAKEN' } }));
    const error = await documentClient()
      .send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: config.tableName(), Item: { pk, sk: 'FREE' }, ConditionExpression: 'attribute_not_exists(pk)' } },
            { Put: { TableName: config.tableName(), Item: { pk, sk: 'TAKEN' }, ConditionExpression: 'attribute_not_exists(pk)' } },
          ],
        }),
      )
      .then(() => undefined, (failure: unknown) => failure);
    expect(transactionCancellationReasons(error)).toEqual(['None', 'ConditionalCheckFailed']);
  });

  it('recognises a single write whose condition failed', async () => {
    const pk = `HELPERTEST#${randomUUID()}`;
    const put = () => documentClient().send(new PutCommand({ TableName: config.tableName(), Item: { pk, sk: 'ONE' }, ConditionExpression: 'attribute_not_exists(pk)' }));
    await put();
    const error = await put().then(() => undefined, (failure: unknown) => failure);
    expect(isConditionalCheckFailure(error)).toBe(true);
    expect(transactionCancellationReasons(error)).toBeUndefined();
  });
});
