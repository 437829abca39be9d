/**
 * Runs a write at most once per idempotency key, in the service's one table. The first answer
 * is stored and a retry with the same key answers it again without running the write; the same
 * key with a different request is refused; a write that fails leaves no record, so it can be
 * retried. Knows no business: the caller names the scope, the key and what the request was.
 *
 * The records are Powertools idempotency's (2.35.0, DynamoDB persistence) exactly: the same
 * key hash, attributes and conditions, so records written before and after this module
 * replaced it read alike. It is written here rather than imported because Powertools'
 * persistence layer always bundles its JMESPath engine and the low-level DynamoDB client's
 * marshalling (+135 KiB on every function taking an Idempotency-Key), where this needs only the
 * document client every function already has.
 */
import { createHash } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './clients.js';
import { config } from './config.js';
import { isConditionalCheckFailure } from './dynamo.js';
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

/** A first call's record found expired or lapsed is taken over at most this many times. */
const MAX_RETRIES = 2;

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

/** Powertools' key ordering: object keys sorted without regard to case, arrays kept in order. */
function deepSort(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(deepSort);
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const source = value as Record<string, unknown>;
    return Object.keys(source)
      .sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1))
      .reduce<Record<string, unknown>>((sorted, key) => {
        sorted[key] = deepSort(source[key]);
        return sorted;
      }, {});
  }
  return value;
}

const md5 = (value: unknown) => createHash('md5').update(JSON.stringify(deepSort(value))).digest('base64');

/** The sort key of (scope, key)'s record: Powertools' `<keyPrefix>#<md5 of the key>`. */
export const idempotencyRecordSortKey = (scope: string, key: string) => `${scope}#${md5(key)}`;
/** What a repeat's request is compared on: Powertools' payload validation hash. */
export const requestHash = (request: unknown) => md5(request);

interface StoredRecord {
  status?: 'INPROGRESS' | 'COMPLETED' | 'EXPIRED';
  [TTL_ATTRIBUTE]?: number;
  in_progress_expiration?: number;
  data?: unknown;
  validation?: string;
}

/** A record found on a repeat: the stored answer, or why there is none to give. */
function answerOf(stored: StoredRecord, validation: string): { answer: unknown } | 'again' {
  if (stored.validation !== validation) throw new IdempotencyKeyReusedError();
  const expired = (stored[TTL_ATTRIBUTE] ?? 0) * 1000 < Date.now();
  if (expired) return 'again';
  if (stored.status === 'COMPLETED') return { answer: stored.data };
  // In progress: a first call still running, unless its lock has lapsed (then try again).
  if (stored.in_progress_expiration !== undefined && stored.in_progress_expiration < Date.now()) return 'again';
  throw new IdempotencyKeyInProgressError();
}

/**
 * `run` once for (scope, key): a repeat answers the first result. `request` is what the
 * caller asked (compared on a repeat); the answer must be plain JSON.
 */
export async function onceForKey<T>(scope: string, key: string, request: unknown, run: () => Promise<T>): Promise<T> {
  if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX || !/^[\x21-\x7e][\x20-\x7e]*$/.test(key)) throw new InvalidIdempotencyKeyError();
  const tableName = config.tableName();
  const itemKey = { [TABLE_KEYS.partition]: idempotencyPartition(scope), [TABLE_KEYS.sort]: idempotencyRecordSortKey(scope, key) };
  const validation = requestHash(request);
  for (let attempt = 0; attempt <= MAX_RETRIES; attempt += 1) {
    const now = Date.now();
    try {
      await documentClient().send(
        new PutCommand({
          TableName: tableName,
          Item: { ...itemKey, [TTL_ATTRIBUTE]: Math.round(now / 1000 + IDEMPOTENCY_SECONDS), status: 'INPROGRESS', in_progress_expiration: now + IN_PROGRESS_MS, validation },
          ConditionExpression: 'attribute_not_exists(#id) OR #expiry < :now OR (#status = :inprogress AND attribute_exists(#in_progress_expiry) AND #in_progress_expiry < :now_in_millis)',
          ExpressionAttributeNames: { '#id': TABLE_KEYS.partition, '#expiry': TTL_ATTRIBUTE, '#in_progress_expiry': 'in_progress_expiration', '#status': 'status' },
          ExpressionAttributeValues: { ':now': now / 1000, ':now_in_millis': now, ':inprogress': 'INPROGRESS' },
        }),
      );
    } catch (error) {
      if (!isConditionalCheckFailure(error)) throw error;
      // A repeat (or a first call still running): what is stored decides the answer.
      const stored = (await documentClient().send(new GetCommand({ TableName: tableName, Key: itemKey, ConsistentRead: true }))).Item as StoredRecord | undefined;
      if (!stored) continue;
      const found = answerOf(stored, validation);
      if (found === 'again') continue;
      return found.answer as T;
    }
    let answer: T;
    try {
      answer = await run();
    } catch (error) {
      await documentClient().send(new DeleteCommand({ TableName: tableName, Key: itemKey })).catch(() => undefined);
      throw error;
    }
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName,
        Key: itemKey,
        UpdateExpression: 'SET #expiry = :expiry, #status = :status, #data = :data, #validation = :validation',
        ExpressionAttributeNames: { '#expiry': TTL_ATTRIBUTE, '#status': 'status', '#data': 'data', '#validation': 'validation' },
        ExpressionAttributeValues: { ':expiry': Math.round(Date.now() / 1000 + IDEMPOTENCY_SECONDS), ':status': 'COMPLETED', ':data': answer ?? null, ':validation': validation },
      }),
    );
    return answer;
  }
  throw new IdempotencyKeyInProgressError();
}
