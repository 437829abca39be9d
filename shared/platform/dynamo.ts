/**
 * The DynamoDB loops every store needs and none should write again: a Query paged to
 * its end (or to a bound), BatchGetItem and BatchWriteItem in DynamoDB's chunk sizes
 * with their unprocessed remainders retried, and the reasons a transaction was
 * cancelled. They know the table, never an entity's keys: each area's store builds
 * the keys and key conditions and passes them in.
 */
import { BatchGetCommand, BatchWriteCommand, DeleteCommand, GetCommand, PutCommand, QueryCommand, type BatchGetCommandOutput, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './clients.js';
import { mapLimited } from './concurrency.js';
import { config } from './config.js';
import type { TransactionWrite } from './transactions.js';

/** An item as the document client reads and writes it (its attribute values are typed `any` there too). */
export type TableItem = Record<string, any>;
/** The key attributes of one item (table keys: pk and sk). */
export type ItemKey = Record<string, unknown>;

/** DynamoDB's limits on the keys of one BatchGetItem and the requests of one BatchWriteItem. */
export const BATCH_GET_LIMIT = 100;
export const BATCH_WRITE_LIMIT = 25;

/** A Query of the table or one of its indexes; the table is the configured one unless named. */
export type QueryInput = Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'> & { TableName?: string };

export interface QueryPage<T> {
  items: T[];
  /** Items the page matched: its item count, or the count alone of a `Select: 'COUNT'` query. */
  count: number;
  /** Where the next page starts; absent on the last page. */
  lastEvaluatedKey?: ItemKey;
}

export interface QueryPagesOptions {
  /** Continue from this key (the lastEvaluatedKey of an earlier page). */
  startKey?: ItemKey;
  /**
   * Stop once this many items have been matched in all; each page asks for no more than
   * remain (within the input's own Limit), so the pages never read past the bound.
   */
  maxItems?: number;
}

/** The largest Limit a Query accepts. */
export const MAX_QUERY_LIMIT = 2 ** 31 - 1;

/**
 * The pages of a Query, one request each, in order. A caller that has what it needs
 * simply stops iterating and no further page is read.
 */
export async function* queryPages<T = TableItem>(input: QueryInput, options: QueryPagesOptions = {}): AsyncGenerator<QueryPage<T>, void> {
  const maxItems = options.maxItems ?? Number.POSITIVE_INFINITY;
  let startKey = options.startKey;
  let matched = 0;
  while (matched < maxItems) {
    const wanted = Math.min(input.Limit ?? Number.POSITIVE_INFINITY, maxItems - matched);
    // DynamoDB reads a Limit as a 32-bit integer: skipping to page 10^6 of 10,000 must not ask for more.
    const limit = Number.isFinite(wanted) ? Math.min(wanted, MAX_QUERY_LIMIT) : wanted;
    const page = await documentClient().send(
      new QueryCommand({
        ...input,
        TableName: input.TableName ?? config.tableName(),
        ExclusiveStartKey: startKey,
        ...(Number.isFinite(limit) ? { Limit: limit } : {}),
      }),
    );
    const items = (page.Items ?? []) as T[];
    const count = page.Count ?? items.length;
    startKey = page.LastEvaluatedKey;
    yield { items, count, ...(startKey ? { lastEvaluatedKey: startKey } : {}) };
    matched += count;
    if (!startKey) return;
  }
}

/** The item of one key, strongly consistent unless told otherwise; undefined when there is none. */
export async function getItem(key: ItemKey, consistent = true): Promise<TableItem | undefined> {
  const { Item } = await documentClient().send(new GetCommand({ TableName: config.tableName(), Key: key, ConsistentRead: consistent }));
  return Item;
}

/**
 * A declared record's Put (its create, replace or put) sent on its own: a failed condition throws
 * as a single write does (isConditionalCheckFailure). Apart from deleteItem so that a function
 * bundles only the commands it sends.
 */
export async function putItem(write: TransactionWrite): Promise<void> {
  await documentClient().send(new PutCommand(write.Put!));
}

/** A declared record's Delete (its remove) sent on its own. */
export async function deleteItem(write: TransactionWrite): Promise<void> {
  await documentClient().send(new DeleteCommand(write.Delete!));
}

/** Every item a Query matches, paging with LastEvaluatedKey to the end. */
export async function queryAll<T = TableItem>(input: QueryInput): Promise<T[]> {
  const items: T[] = [];
  for await (const page of queryPages<T>(input)) {
    for (const item of page.items) items.push(item);
  }
  return items;
}

export interface BatchGetOptions {
  consistentRead?: boolean;
  /** Attributes to read, with the names that stand for reserved words (`#name`). */
  projection?: { expression: string; names?: Record<string, string> };
  /** Chunks of 100 keys read at the same time (default one after another). */
  concurrency?: number;
}

/**
 * The items of the given keys, read 100 keys per BatchGetItem, retrying the keys
 * DynamoDB leaves unprocessed. Keys with no item are simply absent from the answer,
 * which follows no particular order; a key given twice is read once.
 */
export async function batchGetAll<T = TableItem>(keys: readonly ItemKey[], options: BatchGetOptions = {}): Promise<T[]> {
  const table = config.tableName();
  const shape = {
    ...(options.consistentRead === undefined ? {} : { ConsistentRead: options.consistentRead }),
    ...(options.projection ? { ProjectionExpression: options.projection.expression } : {}),
    ...(options.projection?.names ? { ExpressionAttributeNames: options.projection.names } : {}),
  };
  const found: T[] = [];
  const readChunk = async (chunk: ItemKey[]) => {
    let pending: ItemKey[] | undefined = chunk;
    for (let attempt = 0; pending && pending.length > 0; attempt += 1) {
      if (attempt >= MAX_BATCH_ATTEMPTS) throw new Error(`BatchGetItem left ${pending.length} keys unprocessed after ${attempt} attempts`);
      if (attempt > 0) await pause(retryDelayMs(attempt - 1));
      const result: BatchGetCommandOutput = await documentClient().send(new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ...shape } } }));
      for (const item of result.Responses?.[table] ?? []) found.push(item as T);
      pending = result.UnprocessedKeys?.[table]?.Keys;
    }
  };
  await mapLimited(inChunks(distinctKeys(keys), BATCH_GET_LIMIT), options.concurrency ?? 1, readChunk);
  return found;
}

/** One request of a BatchWriteItem: put an item whole, or delete one by its key. */
export type BatchWriteRequest = { PutRequest: { Item: TableItem } } | { DeleteRequest: { Key: ItemKey } };

/**
 * Applies the puts and deletes 25 per BatchWriteItem, retrying what DynamoDB leaves
 * unprocessed. No conditions are possible: not for records that need a guard.
 */
export async function batchWriteAll(requests: readonly BatchWriteRequest[], options: { concurrency?: number } = {}): Promise<void> {
  const table = config.tableName();
  const writeChunk = async (chunk: BatchWriteRequest[]) => {
    let pending: BatchWriteRequest[] = chunk;
    for (let attempt = 0; pending.length > 0; attempt += 1) {
      if (attempt >= MAX_BATCH_ATTEMPTS) throw new Error(`BatchWriteItem left ${pending.length} items unprocessed after ${attempt} attempts`);
      if (attempt > 0) await pause(retryDelayMs(attempt - 1));
      const result = await documentClient().send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
      pending = (result.UnprocessedItems?.[table] ?? []) as BatchWriteRequest[];
    }
  };
  await mapLimited(inChunks(requests, BATCH_WRITE_LIMIT), options.concurrency ?? 1, writeChunk);
}

/**
 * The code of each item of a cancelled TransactWriteItems, in the order of its items
 * (`None` for an item that did not fail); undefined for any other error.
 */
export function transactionCancellationReasons(error: unknown): string[] | undefined {
  const failure = error as { name?: string; message?: string; CancellationReasons?: Array<{ Code?: string }> } | undefined;
  if (failure?.name !== 'TransactionCanceledException') return undefined;
  if (failure.CancellationReasons) return failure.CancellationReasons.map((reason) => reason.Code ?? 'None');
  // Some servers give the reasons only in the message: "... [ConditionalCheckFailed, None]".
  const listed = /\[([^\]]*)\]/.exec(failure.message ?? '')?.[1];
  return listed ? listed.split(',').map((code) => code.trim()) : [];
}

/** A single-item write whose ConditionExpression did not hold. */
export function isConditionalCheckFailure(error: unknown): boolean {
  return (error as { name?: string } | undefined)?.name === 'ConditionalCheckFailedException';
}

// ---------------------------------------------------------------- pure parts, exported for their tests

/**
 * Throttled keys or items are retried with backoff, but not forever: after this many
 * attempts (about 8 s of waiting) the call fails rather than hang a request.
 */
export const MAX_BATCH_ATTEMPTS = 12;

/** How long to wait before retrying unprocessed keys or items after `attempt` (0-based) came back short. */
export function retryDelayMs(attempt: number): number {
  return Math.min(1000, 50 * 2 ** attempt);
}

export function inChunks<T>(list: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < list.length; start += size) chunks.push(list.slice(start, start + size));
  return chunks;
}

/** The keys without repeats (BatchGetItem refuses a request that names a key twice). */
export function distinctKeys(keys: readonly ItemKey[]): ItemKey[] {
  const seen = new Set<string>();
  return keys.filter((key) => {
    const identity = JSON.stringify(Object.entries(key).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    if (seen.has(identity)) return false;
    seen.add(identity);
    return true;
  });
}


const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
