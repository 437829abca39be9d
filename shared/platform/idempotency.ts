/**
 * Runs a write at most once per idempotency key, with Powertools' idempotency utility and
 * its DynamoDB persistence in the service's one table. The first answer is stored and a
 * retry with the same key answers it again without running the write; the same key with a
 * different request is refused; a write that fails leaves no record, so it can be retried.
 * Knows no business: the caller names the scope, the key and what the request was.
 */
import { IdempotencyConfig, makeIdempotent } from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import { config } from './config.js';
import { BusinessRuleError } from './errors.js';
import { TABLE_KEYS, TTL_ATTRIBUTE } from './table.js';

/** How long a key is remembered: a client retries within minutes, a day is generous. */
export const IDEMPOTENCY_SECONDS = 24 * 60 * 60;
/**
 * How long a first request may run before a retry may take over its key: longer than any
 * synchronous call lives (API Gateway answers within 30 s), so a slow first call is never run twice.
 */
export const IN_PROGRESS_MS = 60_000;
/** Keys longer than this are refused: the key is the caller's, stored in a sort key. */
export const IDEMPOTENCY_KEY_MAX = 255;

/** The partition of one scope's idempotency records (the sort key is Powertools' hash of the key). */
export const idempotencyPartition = (scope: string) => `IDEMPOTENCY#${scope}`;

export class IdempotencyKeyReusedError extends BusinessRuleError {
  constructor() {
    super('Idempotency-Key was already used for a different request; use a new key for a new request');
    this.name = 'IdempotencyKeyReusedError';
  }
}

export class IdempotencyKeyInProgressError extends BusinessRuleError {
  constructor() {
    super('A request with this Idempotency-Key is still being processed; retry it in a moment');
    this.name = 'IdempotencyKeyInProgressError';
  }
}

export class InvalidIdempotencyKeyError extends BusinessRuleError {
  constructor() {
    super(`Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX} printable characters`);
    this.name = 'InvalidIdempotencyKeyError';
  }
}

interface Call {
  key: string;
  request: unknown;
}
type Runner = (call: Call, run: () => Promise<unknown>) => Promise<unknown>;

const runners = new Map<string, Runner>();

function runnerFor(scope: string): Runner {
  const cacheKey = `${config.tableName()}|${scope}`;
  let runner = runners.get(cacheKey);
  if (!runner) {
    const persistenceStore = new DynamoDBPersistenceLayer({
      tableName: config.tableName(),
      keyAttr: TABLE_KEYS.partition,
      sortKeyAttr: TABLE_KEYS.sort,
      staticPkValue: idempotencyPartition(scope),
      expiryAttr: TTL_ATTRIBUTE,
    });
    const idempotencyConfig = new IdempotencyConfig({
      eventKeyJmesPath: 'key',
      payloadValidationJmesPath: 'request',
      throwOnNoIdempotencyKey: true,
      expiresAfterSeconds: IDEMPOTENCY_SECONDS,
    });
    // Callers are not Lambda handlers: the in-progress lock lasts a fixed span instead of the function's remaining time.
    idempotencyConfig.registerLambdaContext({ getRemainingTimeInMillis: () => IN_PROGRESS_MS } as never);
    runner = makeIdempotent(async (_call: Call, run: () => Promise<unknown>) => run(), {
      persistenceStore,
      config: idempotencyConfig,
      keyPrefix: scope,
      dataIndexArgument: 0,
    }) as Runner;
    runners.set(cacheKey, runner);
  }
  return runner;
}

/**
 * `run` once for (scope, key): a repeat answers the first result. `request` is what the
 * caller asked (compared on a repeat); the answer must be plain JSON.
 */
export async function onceForKey<T>(scope: string, key: string, request: unknown, run: () => Promise<T>): Promise<T> {
  if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX || !/^[\x21-\x7e][\x20-\x7e]*$/.test(key)) throw new InvalidIdempotencyKeyError();
  try {
    return (await runnerFor(scope)({ key, request }, run)) as T;
  } catch (error) {
    const name = (error as Error | undefined)?.name;
    if (name === 'IdempotencyValidationError') throw new IdempotencyKeyReusedError();
    if (name === 'IdempotencyAlreadyInProgressError') throw new IdempotencyKeyInProgressError();
    throw error;
  }
}
