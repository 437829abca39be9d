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
  return async function runTransaction(writes: readonly TransactionWrite[], options: TransactionOptions): Promise<void> {
    if (writes.length === 0) return;
    if (writes.length > TRANSACTION_ITEM_LIMIT) throw options.tooLarge?.(writes.length) ?? new TransactionTooLargeError(writes.length);
    const attempts = options.maxAttempts ?? DEFAULT_ATTEMPTS;
    for (let attempt = 0; ; attempt += 1) {
      // Not started (nor tried again) when the invocation may be stopped before it is answered.
      assertTimeToCommit();
      try {
        await send({ TransactItems: [...writes] });
        return;
      } catch (error) {
        const bareConflict = (error as { name?: string } | undefined)?.name === 'TransactionConflictException';
        const reasons = transactionCancellationReasons(error);
        if (!reasons && !bareConflict) throw error;
        const indexes = (reasons ?? []).flatMap((reason, index) => (reason === 'ConditionalCheckFailed' ? [index] : []));
        if (indexes.length > 0) {
          const failure: ConditionFailure = { index: indexes[0], indexes, key: keyOf(writes[indexes[0]]), reasons: reasons! };
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
