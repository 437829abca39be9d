/**
 * The one transaction runner. Every area's store hands its writes here, so that the item
 * limit, the retry of a conflicting transaction and the meaning of a failed condition are
 * decided once. It knows the table's protocol, never an entity: the store that built the
 * writes says what a failed condition means (which record changed), through `onConditionFailed`.
 */
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './clients.js';
import { transactionCancellationReasons } from './dynamo.js';
import { BusinessRuleError, ConcurrentChangeError } from './errors.js';
import { assertTimeToCommit } from './invocation.js';

/** One write of a transaction (a Put, Update, Delete or ConditionCheck), as the document client takes it. */
export type TransactionWrite = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** DynamoDB's limit on the items of one TransactWriteItems call. */
export const TRANSACTION_ITEM_LIMIT = 100;

/** A transaction that would write more than one call can carry; nothing was written. */
export class TransactionTooLargeError extends BusinessRuleError {
  constructor(readonly writes: number, message = `The change needs ${writes} writes; at most ${TRANSACTION_ITEM_LIMIT} fit one transaction`) {
    super(message);
    this.name = 'TransactionTooLargeError';
  }
}

/** Where a cancelled transaction failed: the writes whose condition did not hold, first one first. */
export interface ConditionFailure {
  /** The first write whose condition failed. */
  index: number;
  /** Every write whose condition failed, in order. */
  indexes: number[];
  /** The key of the first failing write: the record that changed. */
  key: Record<string, unknown> | undefined;
  /** The code of each write, `None` for one that did not fail. */
  reasons: string[];
}

/**
 * A condition of the transaction did not hold: a record it guards was changed (or created,
 * or removed) by another request since it was read. Nothing was written.
 */
export class RecordChangedError extends ConcurrentChangeError {
  readonly index: number;
  readonly key: Record<string, unknown> | undefined;
  constructor(what: string, readonly failure: ConditionFailure) {
    super(what);
    this.name = 'RecordChangedError';
    this.index = failure.index;
    this.key = failure.key;
  }
}

export interface TransactionOptions {
  /** What the transaction changes, as a user reads it ("Policy P-2025-0001"): the subject of the errors. */
  label: string;
  /** The error for too many writes (default: TransactionTooLargeError naming the count and the limit). */
  tooLarge?: (writes: number) => Error;
  /**
   * The typed error of a failed condition, from which write failed (a check number already
   * posted, a policy number taken). Answering undefined keeps the default, RecordChangedError.
   */
  onConditionFailed?: (failure: ConditionFailure) => Error | undefined | Promise<Error | undefined>;
  /** Tries of a transaction that keeps meeting other transactions (default 10). */
  maxAttempts?: number;
}

export interface TransactionRunnerDependencies {
  /** Sends one TransactWriteItems (default: the document client). */
  send?: (input: TransactWriteCommandInput) => Promise<unknown>;
  /** Waits between tries (default: a timer). */
  pause?: (ms: number) => Promise<void>;
  /** A number in [0, 1) for the jitter (default Math.random). */
  random?: () => number;
}

/**
 * A counter write: an Update that only ADDs numbers to an item (and sets attributes that are the
 * same for every writer of it), with no condition. Several counter writes to one item in one
 * transaction are merged into one Update (DynamoDB refuses a transaction naming an item twice),
 * and a producer may have its key settled at commit (`settle`: read what decides where the
 * counters land, once, just before the transaction is sent).
 */
export interface CounterWrite {
  tableName: string;
  key: Record<string, string>;
  counters: Record<string, number>;
  /** Attributes set if absent (what the item is: its entity, its group's fields). */
  fields?: Record<string, string | number | boolean | null>;
  /**
   * The key the counters land on, decided at commit (defaults to `key`), with extra fields then,
   * and the guard of that landing: a ConditionCheck that fails once the landing is no longer
   * allowed (a month closed since it was read). `fresh`: read again, not from a memo (the runner
   * settles afresh after a guard failed).
   */
  settle?: (write: CounterWrite, context: { fresh: boolean }) => Promise<CounterSettlement | null>;
}

/**
 * Where a counter write lands, as its settle decided; `landed`: what its producer notes once the
 * transaction has committed (never when it failed), such as a marker it now knows is written.
 */
export type CounterSettlement = Pick<CounterWrite, 'key'> & { fields?: CounterWrite['fields']; counters?: CounterWrite['counters']; guard?: TransactionWrite; landed?: () => void };

const counterWrites = new WeakMap<object, CounterWrite>();

function counterUpdate(counter: CounterWrite): TransactionWrite {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const adds = Object.entries(counter.counters).map(([attribute, cents], index) => {
    names[`#c${index}`] = attribute;
    values[`:c${index}`] = cents;
    return `#c${index} :c${index}`;
  });
  const sets = Object.entries(counter.fields ?? {}).map(([attribute, value], index) => {
    names[`#f${index}`] = attribute;
    values[`:f${index}`] = value;
    return `#f${index} = if_not_exists(#f${index}, :f${index})`;
  });
  const write: TransactionWrite = {
    Update: {
      TableName: counter.tableName,
      Key: counter.key,
      UpdateExpression: [adds.length ? `ADD ${adds.join(', ')}` : '', sets.length ? `SET ${sets.join(', ')}` : ''].filter(Boolean).join(' ') || 'SET #f0 = if_not_exists(#f0, :f0)',
      ...(Object.keys(names).length ? { ExpressionAttributeNames: names, ExpressionAttributeValues: values } : {}),
    },
  };
  counterWrites.set(write, counter);
  return write;
}

/** A counter write (CounterWrite) as a transaction write: merged with others to its item, settled at commit. */
export function counterWrite(counter: CounterWrite): TransactionWrite {
  return counterUpdate(counter);
}

/**
 * The writes as sent: every other write in its order, then the counter writes settled, those
 * landing on one item merged (counters added, zero sums dropped), then their landings' guards
 * (one per item); `origin` names, for each write sent, the index of the write given it came from
 * (so a failed condition names the write given), `guards` the indexes sent that are guards.
 */
export async function settledWrites(writes: readonly TransactionWrite[], context: { fresh: boolean } = { fresh: false }): Promise<{ writes: TransactionWrite[]; origin: number[]; guards: Set<number>; landed: Array<() => void> }> {
  if (!writes.some((write) => counterWrites.has(write))) return { writes: [...writes], origin: writes.map((_, index) => index), guards: new Set(), landed: [] };
  const plain: TransactionWrite[] = [];
  const origin: number[] = [];
  const landed: Array<() => void> = [];
  const merged = new Map<string, { from: number; counter: CounterWrite }>();
  const guards = new Map<string, { from: number; guard: TransactionWrite }>();
  for (const [index, write] of writes.entries()) {
    const counter = counterWrites.get(write);
    if (!counter) {
      plain.push(write);
      origin.push(index);
      continue;
    }
    const settled: CounterSettlement | null = counter.settle ? await counter.settle(counter, context) : { key: counter.key };
    // Settled to nowhere: the write is not needed this time (a marker already there).
    if (!settled) continue;
    if (settled.landed) landed.push(settled.landed);
    if (settled.guard) {
      const guarded = JSON.stringify([settled.guard.ConditionCheck?.TableName, Object.entries(keyOf(settled.guard) ?? {}).sort()]);
      if (!guards.has(guarded)) guards.set(guarded, { from: index, guard: settled.guard });
    }
    const landing: CounterWrite = { ...counter, key: settled.key, counters: 'counters' in settled && settled.counters ? settled.counters : counter.counters, fields: { ...counter.fields, ...settled.fields }, settle: undefined };
    const id = `${landing.tableName} ${JSON.stringify(Object.entries(landing.key).sort())}`;
    const found = merged.get(id);
    if (!found) {
      merged.set(id, { from: index, counter: { ...landing, counters: { ...landing.counters } } });
      continue;
    }
    for (const [attribute, cents] of Object.entries(landing.counters)) found.counter.counters[attribute] = (found.counter.counters[attribute] ?? 0) + cents;
    found.counter.fields = { ...landing.fields, ...found.counter.fields };
  }
  for (const { from, counter } of merged.values()) {
    const counters = Object.fromEntries(Object.entries(counter.counters).filter(([, cents]) => cents !== 0));
    if (!Object.keys(counters).length && !Object.keys(counter.fields ?? {}).length) continue;
    plain.push(counterUpdate({ ...counter, counters }));
    origin.push(from);
  }
  const guardIndexes = new Set<number>();
  for (const { from, guard } of guards.values()) {
    guardIndexes.add(plain.length);
    plain.push(guard);
    origin.push(from);
  }
  return { writes: plain, origin, guards: guardIndexes, landed };
}

/** Reasons a cancelled transaction may be sent again as it is: it wrote nothing and every guard held. */
const RETRIED_REASONS = new Set(['TransactionConflict', 'ThrottlingError', 'ProvisionedThroughputExceeded', 'RequestLimitExceeded']);
const DEFAULT_ATTEMPTS = 10;

/** The longest wait before try `attempt` + 1 (0-based): doubling from 20 ms, capped at 500 ms; the wait itself is drawn below it. */
export function conflictBackoffCeilingMs(attempt: number): number {
  return Math.min(500, 20 * 2 ** attempt);
}

export function transactionRunner(dependencies: TransactionRunnerDependencies = {}) {
  const send = dependencies.send ?? ((input: TransactWriteCommandInput) => documentClient().send(new TransactWriteCommand(input)));
  const pause = dependencies.pause ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const random = dependencies.random ?? Math.random;

  /**
   * Writes all of `writes` or none. A transaction that only met another one (a conflict, a
   * throttle: nothing written, every guard held) is sent again after a jittered wait, so that
   * concurrent writers stop meeting; a failed condition is RecordChangedError (or the store's
   * own error for it); any other failure is thrown as it came.
   */
  return async function runTransaction(given: readonly TransactionWrite[], options: TransactionOptions): Promise<void> {
    let { writes, origin, guards, landed } = await settledWrites(given);
    if (writes.length === 0) return;
    if (writes.length > TRANSACTION_ITEM_LIMIT) throw options.tooLarge?.(writes.length) ?? new TransactionTooLargeError(writes.length);
    const attempts = options.maxAttempts ?? DEFAULT_ATTEMPTS;
    for (let attempt = 0; ; attempt += 1) {
      // Not started (nor tried again) when the invocation may be stopped before it is answered.
      assertTimeToCommit();
      try {
        await send({ TransactItems: [...writes] });
        for (const note of landed) note();
        return;
      } catch (error) {
        if (exceedsItemSize(error)) throw new RecordTooLargeError(options.label);
        const bareConflict = (error as { name?: string } | undefined)?.name === 'TransactionConflictException';
        const reasons = transactionCancellationReasons(error);
        if (!reasons && !bareConflict) throw error;
        const failed = (reasons ?? []).flatMap((reason, index) => (reason === 'ConditionalCheckFailed' ? [index] : []));
        // Only a landing's guard failed (its month closed meanwhile): nothing was written; the counters are settled afresh and sent again.
        if (failed.length > 0 && failed.every((index) => guards.has(index)) && attempt + 1 < attempts) {
          ({ writes, origin, guards, landed } = await settledWrites(given, { fresh: true }));
          if (writes.length > TRANSACTION_ITEM_LIMIT) throw options.tooLarge?.(writes.length) ?? new TransactionTooLargeError(writes.length);
          continue;
        }
        const indexes = failed.map((index) => origin[index]);
        if (indexes.length > 0) {
          // Named as given: the index and reason of each write given (a counter write merged away reads `None`).
          const givenReasons = given.map(() => 'None');
          (reasons ?? []).forEach((reason, index) => (givenReasons[origin[index]] = reason));
          const failure: ConditionFailure = { index: indexes[0], indexes, key: keyOf(given[indexes[0]]), reasons: givenReasons };
          throw (await options.onConditionFailed?.(failure)) ?? new RecordChangedError(options.label, failure);
        }
        const retriable = bareConflict || (reasons!.length > 0 && reasons!.some((reason) => RETRIED_REASONS.has(reason)) && reasons!.every((reason) => reason === 'None' || RETRIED_REASONS.has(reason)));
        if (!retriable) throw error;
        if (attempt + 1 >= attempts) throw new ConcurrentChangeError(options.label);
        await pause(random() * conflictBackoffCeilingMs(attempt));
      }
    }
  };
}

/** A change that would make one record larger than DynamoDB holds (400 KB an item): refused whole, nothing stored. */
export class RecordTooLargeError extends BusinessRuleError {
  constructor(label: string) {
    super(`${label} was not changed: a record would pass the 400 KB it can hold`);
    this.name = 'RecordTooLargeError';
  }
}

/** DynamoDB's refusal of a write whose item would pass its size limit: the request's error, or a cancelled transaction's reason. */
function exceedsItemSize(error: unknown): boolean {
  const failure = error as { name?: string; message?: string; CancellationReasons?: Array<{ Message?: string }> } | undefined;
  return /^(ValidationException|TransactionCanceledException)$/.test(failure?.name ?? '') && [failure?.message, ...(failure?.CancellationReasons ?? []).map((reason) => reason.Message)].some((text) => /item size/i.test(text ?? ''));
}

/** The key of the record a write names. */
function keyOf(write: TransactionWrite | undefined): Record<string, unknown> | undefined {
  if (!write) return undefined;
  if (write.Put) {
    const { pk, sk } = write.Put.Item as Record<string, unknown>;
    return { pk, sk };
  }
  return (write.Update?.Key ?? write.Delete?.Key ?? write.ConditionCheck?.Key) as Record<string, unknown> | undefined;
}

/** The runner every store uses. */
export const runTransaction = /* @__PURE__ */ transactionRunner();

/** A stored item without what only storage needs: its table and index keys, and its entity tag unless kept. */
export function withoutStorageKeys<T>(item: Record<string, unknown>, options: { keepEntity?: boolean } = {}): T {
  const record: Record<string, unknown> = {};
  for (const [attribute, value] of Object.entries(item)) {
    if (attribute === 'pk' || attribute === 'sk' || /^gsi\d+(pk|sk)$/.test(attribute)) continue;
    if (attribute === 'entity' && !options.keepEntity) continue;
    record[attribute] = value;
  }
  return record as T;
}
