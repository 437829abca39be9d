/**
 * The bench's DynamoDB meter: every call priced as AWS bills it on demand, not as DynamoDB Local
 * reports it (Local counts a transaction of many items as 2 units whatever its size: a quote, 13
 * reported against 131 billed).
 *
 * Writes: each item's size (attribute names and values, test/support/item-size.ts) rounded up per
 * 1 KB, the larger of its before and after images; the same again for each index the item is
 * projected into (an index entry that moves, its key changed, is a delete of the old entry and a
 * put of the new one); all doubled inside a transaction. A write whose condition fails is billed
 * for the item (no index entry changes); a ConditionCheck is billed as a write of the checked item.
 * Reads: 4 KB units, an item at a time for Get and BatchGet, the items read summed for a Query or
 * Scan (before any filter, whatever the projection), strongly consistent 1, eventually consistent
 * (every index read) half, transactional 2.
 *
 * The sizes it needs and a call does not carry (the item before a write, after an update, the
 * whole items behind a projected or filtered Query) it reads with a client of its own, unmetered;
 * the time that takes is kept apart (`overheadMs`) so the bench can take it off a call's duration.
 *
 * The pricing rules are plain functions, unit-tested on items of known size (test/unit/bench-billed-capacity.test.ts).
 */
import {
  BatchGetItemCommand,
  DynamoDBClient,
  QueryCommand,
  ScanCommand,
  type AttributeValue,
  type QueryCommandInput,
  type ScanCommandInput,
} from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { GLOBAL_INDEXES, TABLE_KEYS } from '../../shared/platform/table.js';
import { itemSize } from '../support/item-size.js';

export type Item = Record<string, AttributeValue>;

/** The table's indexes as the pricing needs them (shared/platform/table.ts; every one projects ALL). */
export interface IndexShape {
  indexName: string;
  partition: string;
  sort?: string;
}
export const TABLE_INDEXES: readonly IndexShape[] = GLOBAL_INDEXES;

const WRITE_UNIT_BYTES = 1024;
const READ_UNIT_BYTES = 4096;
const unitsOf = (bytes: number, unit: number) => Math.max(1, Math.ceil(bytes / unit));

/** The index key an item carries for `index`, or undefined: an item without it is not in the index. */
function indexKey(item: Item | undefined, index: IndexShape): string | undefined {
  if (!item) return undefined;
  const partition = item[index.partition];
  const sort = index.sort ? item[index.sort] : undefined;
  if (!partition || (index.sort && !sort)) return undefined;
  return JSON.stringify([partition, sort ?? null]);
}

export interface WriteImages {
  /** The item before the write (undefined: there was none). */
  before?: Item;
  /** The item after it (undefined: deleted, or never there). */
  after?: Item;
  transactional?: boolean;
  /** False when the write's condition failed (or its transaction was cancelled): the item is billed, no index entry changes. */
  applied?: boolean;
}

/** The write units AWS bills one item's write: the table's, and each index entry it writes or deletes. */
export function billedWriteUnits(write: WriteImages, indexes: readonly IndexShape[] = TABLE_INDEXES): number {
  const { before, after } = write;
  const itemUnits = unitsOf(Math.max(before ? itemSize(before) : 0, after ? itemSize(after) : 0), WRITE_UNIT_BYTES);
  let units = itemUnits;
  if (write.applied !== false) {
    for (const index of indexes) {
      const was = indexKey(before, index);
      const is = indexKey(after, index);
      if (was && is && was === is) units += unitsOf(itemSize(after!), WRITE_UNIT_BYTES);
      else {
        // Left the index, joined it, or moved in it: a delete of the old entry, a put of the new.
        if (was) units += unitsOf(itemSize(before!), WRITE_UNIT_BYTES);
        if (is) units += unitsOf(itemSize(after!), WRITE_UNIT_BYTES);
      }
    }
  }
  return write.transactional ? units * 2 : units;
}

export type ReadConsistency = 'eventual' | 'strong' | 'transactional';
const READ_FACTOR: Record<ReadConsistency, number> = { eventual: 0.5, strong: 1, transactional: 2 };

/** Read units of items read one at a time (GetItem, BatchGetItem, TransactGetItems): each rounded up to 4 KB; a missing one costs the least read. */
export function billedItemReads(sizes: ReadonlyArray<number | undefined>, consistency: ReadConsistency): number {
  return sizes.reduce<number>((sum, size) => sum + unitsOf(size ?? 0, READ_UNIT_BYTES) * READ_FACTOR[consistency], 0);
}

/** Read units of one Query or Scan page: the items it read, summed, rounded up to 4 KB once. */
export function billedQueryReads(sizes: readonly number[], consistency: ReadConsistency): number {
  return unitsOf(sizes.reduce((sum, size) => sum + size, 0), READ_UNIT_BYTES) * READ_FACTOR[consistency];
}

/** What the bench reads after each call: billed units, DynamoDB calls made, and the meter's own time. */
export const billedMeter = {
  readUnits: 0,
  writeUnits: 0,
  calls: 0,
  /** Milliseconds the meter spent reading sizes, inside the calls it metered. */
  overheadMs: 0,
  /**
   * On only while a call or a run is metered (BenchContext.call; the scenarios that meter a
   * run): the sizes it reads would slow every timed run and latency loop.
   */
  enabled: false,
  /** S3 requests as AWS bills them: GETs (GetObject, HeadObject) and PUTs (PutObject, CopyObject, List, multipart parts); SQS requests of every kind. */
  s3Gets: 0,
  s3Puts: 0,
  sqsRequests: 0,
  /**
   * Told each item write as it is billed, when set (a probe of which items and code paths cost
   * what): the command, the item's key, its images before and after, and the units billed.
   */
  onWrite: undefined as undefined | ((write: BilledWrite) => void),
  /** Starts metering from zero. */
  reset() {
    this.enabled = true;
    this.readUnits = 0;
    this.writeUnits = 0;
    this.calls = 0;
    this.overheadMs = 0;
    this.s3Gets = 0;
    this.s3Puts = 0;
    this.sqsRequests = 0;
  },
};

/** S3 bills GET and HEAD at the GET price, every other request (PUT, COPY, POST, LIST, DELETE is free) at the PUT price. */
export function s3RequestKind(command: string): 'get' | 'put' | 'free' {
  if (/^(GetObject|HeadObject|HeadBucket)/.test(command)) return 'get';
  if (/^DeleteObject/.test(command)) return 'free';
  return 'put';
}

/**
 * Counts the S3 and SQS requests every client of these classes sends while the meter is on
 * (the service's own clients, the local queue pollers' and the presigners' alike): the
 * prototypes' `send` is wrapped once, so clients created before or after are counted.
 */
export function meterRequests(classes: { S3Client: { prototype: { send: (...args: any[]) => any } }; SQSClient: { prototype: { send: (...args: any[]) => any } } }): void {
  const wrap = (prototype: { send: (...args: any[]) => any }, count: (command: string) => void) => {
    if ((prototype as { metered?: boolean }).metered) return;
    const send = prototype.send;
    prototype.send = function (this: unknown, command: { constructor: { name: string } }, ...rest: unknown[]) {
      if (billedMeter.enabled) count(command.constructor.name.replace(/Command$/, ''));
      return send.call(this, command, ...rest);
    };
    (prototype as { metered?: boolean }).metered = true;
  };
  wrap(classes.S3Client.prototype, (command) => {
    const kind = s3RequestKind(command);
    if (kind === 'get') billedMeter.s3Gets += 1;
    else if (kind === 'put') billedMeter.s3Puts += 1;
  });
  wrap(classes.SQSClient.prototype, () => (billedMeter.sqsRequests += 1));
}

/** One item write as the meter billed it (billedMeter.onWrite). */
export interface BilledWrite {
  command: string;
  kind: 'Put' | 'Update' | 'Delete' | 'ConditionCheck';
  key: Item;
  before?: Item;
  after?: Item;
  applied: boolean;
  units: number;
}

type WriteRequest = { kind: 'Put' | 'Update' | 'Delete' | 'ConditionCheck'; table: string; key: Item; item?: Item };

const keyOf = (item: Item): Item => ({ [TABLE_KEYS.partition]: item[TABLE_KEYS.partition], [TABLE_KEYS.sort]: item[TABLE_KEYS.sort] });
const keyText = (table: string, key: Item) => `${table}|${JSON.stringify(key[TABLE_KEYS.partition])}|${JSON.stringify(key[TABLE_KEYS.sort])}`;

/** The items a write command touches, in one shape. */
function writeRequests(command: string, input: any): WriteRequest[] {
  if (command === 'PutItemCommand') return [{ kind: 'Put', table: input.TableName, key: keyOf(input.Item), item: input.Item }];
  if (command === 'UpdateItemCommand') return [{ kind: 'Update', table: input.TableName, key: input.Key }];
  if (command === 'DeleteItemCommand') return [{ kind: 'Delete', table: input.TableName, key: input.Key }];
  if (command === 'TransactWriteItemsCommand') {
    return (input.TransactItems ?? []).map((entry: any): WriteRequest => {
      if (entry.Put) return { kind: 'Put', table: entry.Put.TableName, key: keyOf(entry.Put.Item), item: entry.Put.Item };
      if (entry.Update) return { kind: 'Update', table: entry.Update.TableName, key: entry.Update.Key };
      if (entry.Delete) return { kind: 'Delete', table: entry.Delete.TableName, key: entry.Delete.Key };
      return { kind: 'ConditionCheck', table: entry.ConditionCheck.TableName, key: entry.ConditionCheck.Key };
    });
  }
  if (command === 'BatchWriteItemCommand') {
    return Object.entries(input.RequestItems ?? {}).flatMap(([table, requests]) =>
      (requests as any[]).map((request): WriteRequest =>
        request.PutRequest ? { kind: 'Put', table, key: keyOf(request.PutRequest.Item), item: request.PutRequest.Item } : { kind: 'Delete', table, key: request.DeleteRequest.Key },
      ),
    );
  }
  return [];
}

/** Placeholders (#name, :value) an expression uses. */
const placeholders = (expression: string | undefined, sigil: '#' | ':') => new Set(expression?.match(sigil === '#' ? /#[A-Za-z0-9_]+/g : /:[A-Za-z0-9_]+/g) ?? []);

/** A Query or Scan's input reading whole items, unfiltered: what AWS bills it for. */
function wholeItemsInput<Input extends QueryCommandInput | ScanCommandInput>(input: Input): Input {
  const { ProjectionExpression: _p, FilterExpression: _f, Select: _s, ReturnConsumedCapacity: _r, ExpressionAttributeNames, ExpressionAttributeValues, ...rest } = input as QueryCommandInput;
  const keyCondition = (input as QueryCommandInput).KeyConditionExpression;
  const names = placeholders(keyCondition, '#');
  const values = placeholders(keyCondition, ':');
  const keptNames = Object.fromEntries(Object.entries(ExpressionAttributeNames ?? {}).filter(([name]) => names.has(name)));
  const keptValues = Object.fromEntries(Object.entries(ExpressionAttributeValues ?? {}).filter(([name]) => values.has(name)));
  return {
    ...rest,
    ...(Object.keys(keptNames).length ? { ExpressionAttributeNames: keptNames } : {}),
    ...(Object.keys(keptValues).length ? { ExpressionAttributeValues: keptValues } : {}),
  } as Input;
}

/**
 * Meters a DynamoDB client (the bench hooks the service's client through onClientCreated): adds
 * what AWS would bill each call it makes to `billedMeter`.
 */
export function meterBilledCapacity(client: DynamoDBClient, sizes: DynamoDBClient = new DynamoDBClient({})): void {
  /** Current images of the keys, read strongly consistent, 100 to a call. */
  const currentImages = async (requests: readonly WriteRequest[]): Promise<Map<string, Item>> => {
    const found = new Map<string, Item>();
    const unique = new Map(requests.map((request) => [keyText(request.table, request.key), request]));
    const list = [...unique.values()];
    for (let start = 0; start < list.length; start += 100) {
      const byTable: Record<string, { Keys: Item[]; ConsistentRead: boolean }> = {};
      for (const request of list.slice(start, start + 100)) (byTable[request.table] ??= { Keys: [], ConsistentRead: true }).Keys.push(request.key);
      let pending: typeof byTable | undefined = byTable;
      while (pending && Object.keys(pending).length) {
        const answer = await sizes.send(new BatchGetItemCommand({ RequestItems: pending }));
        for (const [table, items] of Object.entries(answer.Responses ?? {})) for (const item of items) found.set(keyText(table, keyOf(item)), item);
        pending = answer.UnprocessedKeys as typeof byTable | undefined;
      }
    }
    return found;
  };

  const timed = async <T>(work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await work();
    } finally {
      billedMeter.overheadMs += performance.now() - started;
    }
  };

  client.middlewareStack.add(
    (next, context) => async (args) => {
      const command = String(context.commandName ?? '');
      const input = args.input as any;
      if (!billedMeter.enabled) return next(args);
      billedMeter.calls += 1;
      const writes = writeRequests(command, input);
      const before = writes.length ? await timed(() => currentImages(writes)) : new Map<string, Item>();
      let applied = true;
      let result: Awaited<ReturnType<typeof next>>;
      try {
        result = await next(args);
      } catch (error) {
        const name = (error as { name?: string }).name ?? '';
        if (writes.length && /ConditionalCheckFailed|TransactionCanceled/.test(name)) {
          applied = false;
          const transactional = command === 'TransactWriteItemsCommand';
          for (const write of writes) {
            const was = before.get(keyText(write.table, write.key));
            const units = billedWriteUnits({ before: was, after: write.item, transactional, applied });
            billedMeter.writeUnits += units;
            billedMeter.onWrite?.({ command, kind: write.kind, key: write.key, before: was, after: write.item, applied, units });
          }
        }
        throw error;
      }
      if (writes.length) {
        const updated = writes.filter((write) => write.kind === 'Update');
        const after = updated.length ? await timed(() => currentImages(updated)) : new Map<string, Item>();
        const transactional = command === 'TransactWriteItemsCommand';
        // A BatchWriteItem's unprocessed requests wrote nothing: the caller sends them again and is billed then.
        const unprocessed = new Set(
          Object.entries((result.output as any).UnprocessedItems ?? {}).flatMap(([table, requests]) =>
            (requests as any[]).map((request) => keyText(table, keyOf(asAttributeValues(request.PutRequest ? request.PutRequest.Item : request.DeleteRequest.Key)!))),
          ),
        );
        for (const write of writes) {
          const key = keyText(write.table, write.key);
          if (unprocessed.has(key)) continue;
          const was = before.get(key);
          const is = write.kind === 'Put' ? write.item : write.kind === 'Update' ? after.get(key) : write.kind === 'ConditionCheck' ? was : undefined;
          const units = write.kind === 'ConditionCheck' ? billedWriteUnits({ before: was, transactional, applied: false }) : billedWriteUnits({ before: was, after: is, transactional, applied });
          billedMeter.writeUnits += units;
          billedMeter.onWrite?.({ command, kind: write.kind, key: write.key, before: was, after: is, applied: write.kind !== 'ConditionCheck', units });
        }
        return result;
      }
      billedMeter.readUnits += await timed(() => readUnitsOf(command, input, result.output as any, sizes));
      return result;
    },
    { step: 'build', name: 'billedCapacityMeter' },
  );
}

const ATTRIBUTE_TYPES = new Set(['S', 'N', 'B', 'SS', 'NS', 'BS', 'M', 'L', 'NULL', 'BOOL']);
/**
 * An answer's item as AttributeValues: the document client has already turned its answers into
 * plain values when this meter sees them (its unmarshalling sits before the deserializer).
 */
function asAttributeValues(item: Record<string, unknown> | undefined): Item | undefined {
  if (!item) return undefined;
  const raw = Object.values(item).every((value) => value !== null && typeof value === 'object' && Object.keys(value).length === 1 && ATTRIBUTE_TYPES.has(Object.keys(value)[0]));
  return raw ? (item as Item) : marshall(item, { removeUndefinedValues: true, convertClassInstanceToMap: true });
}
const itemsOf = (items: unknown[] | undefined): Item[] => (items ?? []).map((item) => asAttributeValues(item as Record<string, unknown>)!);

/** What AWS bills a read call, from its answer, or from the whole items behind it where the answer holds less. */
async function readUnitsOf(command: string, input: any, output: any, sizes: DynamoDBClient): Promise<number> {
  if (command === 'GetItemCommand') {
    const item = input.ProjectionExpression && output.Item ? (await sizes.send(new BatchGetItemCommand({ RequestItems: { [input.TableName]: { Keys: [input.Key] } } }))).Responses?.[input.TableName]?.[0] : asAttributeValues(output.Item);
    return billedItemReads([item ? itemSize(item) : undefined], input.ConsistentRead ? 'strong' : 'eventual');
  }
  if (command === 'BatchGetItemCommand') {
    let units = 0;
    for (const [table, request] of Object.entries(input.RequestItems ?? {}) as Array<[string, any]>) {
      const unprocessed = new Set(itemsOf(output.UnprocessedKeys?.[table]?.Keys).map((key) => keyText(table, key)));
      const read = (request.Keys as Item[]).filter((key) => !unprocessed.has(keyText(table, key)));
      // A projected answer carries neither the keys nor the whole item: the keys asked are read whole.
      const items: Item[] = request.ProjectionExpression
        ? read.length ? ((await sizes.send(new BatchGetItemCommand({ RequestItems: { [table]: { Keys: read, ConsistentRead: true } } }))).Responses?.[table] ?? []) : []
        : itemsOf(output.Responses?.[table]);
      const found = new Map(items.map((item) => [keyText(table, keyOf(item)), item]));
      units += billedItemReads(read.map((key) => { const item = found.get(keyText(table, key)); return item ? itemSize(item) : undefined; }), request.ConsistentRead ? 'strong' : 'eventual');
    }
    return units;
  }
  if (command === 'TransactGetItemsCommand') {
    const items: Array<Item | undefined> = (output.Responses ?? []).map((response: any) => asAttributeValues(response?.Item));
    const whole = await Promise.all(
      (input.TransactItems ?? []).map(async (entry: any, index: number) =>
        entry.Get.ProjectionExpression && items[index]
          ? (await sizes.send(new BatchGetItemCommand({ RequestItems: { [entry.Get.TableName]: { Keys: [entry.Get.Key], ConsistentRead: true } } }))).Responses?.[entry.Get.TableName]?.[0]
          : items[index],
      ),
    );
    return billedItemReads(whole.map((item) => (item ? itemSize(item) : undefined)), 'transactional');
  }
  if (command === 'QueryCommand' || command === 'ScanCommand') {
    const consistency: ReadConsistency = input.ConsistentRead && !input.IndexName ? 'strong' : 'eventual';
    const partial = input.ProjectionExpression || input.FilterExpression || (input.Select && input.Select !== 'ALL_ATTRIBUTES');
    let items: Item[] = itemsOf(output.Items);
    if (partial) {
      const whole = wholeItemsInput(input);
      const answer = command === 'QueryCommand' ? await sizes.send(new QueryCommand(whole)) : await sizes.send(new ScanCommand(whole));
      items = answer.Items ?? [];
    }
    return billedQueryReads(items.map(itemSize), consistency);
  }
  return 0;
}
