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
import { BusinessRuleError, RetryLaterError } from './errors.js';
import { invocationDeadline } from './invocation.js';
import { TABLE_KEYS, TTL_ATTRIBUTE } from './table.js';

/** How long a key is remembered: a client retries within minutes, a day is generous. */
export const IDEMPOTENCY_SECONDS = 24 * 60 * 60;
/** Keys longer than this are refused: the key is the caller's, stored in a sort key. */
export const IDEMPOTENCY_KEY_MAX = 255;

/** A first call's record found expired or lapsed is taken over at most this many times. */
const MAX_RETRIES = 2;
/**
 * How long a repeat waits for a first call still running to answer, so concurrent retries of a
 * quick write (a payment) get its answer rather than a refusal; a slow one is refused with 409.
 */
const WAIT_FOR_FIRST_MS = 5_000;
const POLL_MS = 200;
/** Time a repeat keeps, out of its own invocation, to answer after waiting. */
const ANSWER_MARGIN_MS = 2_000;

/** The partition of one scope's idempotency records (the sort key is Powertools' hash of the key). */
export const idempotencyPartition = (scope: string) => `IDEMPOTENCY#${scope}`;

export class IdempotencyKeyReusedError extends BusinessRuleError {
  constructor() {
    super('Idempotency-Key was already used for a different request; use a new key for a new request');
    this.name = 'IdempotencyKeyReusedError';
  }
}

/** What a repeat is told while the first call may still run: 409, retry once it has answered or was given up. */
export class IdempotencyKeyInProgressError extends RetryLaterError {
  constructor(inProgress: string, retryAfterSeconds: number) {
    super(`${inProgress}; retry in ${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'} for its answer`, retryAfterSeconds);
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

/** A record found on a repeat: the stored answer, a first call still running (until when), or none to give. */
type Found = { answer: unknown } | { runningUntil: number } | 'again';

function foundIn(stored: StoredRecord, validation: string): Found {
  if (stored.validation !== validation) throw new IdempotencyKeyReusedError();
  const expired = (stored[TTL_ATTRIBUTE] ?? 0) * 1000 < Date.now();
  if (expired) return 'again';
  if (stored.status === 'COMPLETED') return { answer: stored.data };
  // In progress: a first call still running, unless its mark has lapsed (then try again).
  if (stored.in_progress_expiration !== undefined && stored.in_progress_expiration < Date.now()) return 'again';
  return { runningUntil: stored.in_progress_expiration ?? Date.now() + IDEMPOTENCY_SECONDS * 1000 };
}

export interface KeyedWork {
  /**
   * When the invocation doing the work is stopped (epoch ms; OperationContext.deadline): its
   * in-progress mark lapses then, so an invocation killed mid-work blocks its key no longer
   * than the function's timeout. Without it, an operation's timeout from now.
   */
  deadline?: number;
  /** What a repeat is told is in progress, in the caller's terms ("The payment sent earlier with this Idempotency-Key is still being posted"). */
  inProgress?: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `run` once for (scope, key): a repeat answers the first result. `request` is what the
 * caller asked (compared on a repeat); the answer must be plain JSON. A repeat arriving while
 * the first call runs waits a little for its answer, then is refused with 409 and Retry-After
 * (the moment the first call has answered or been given up).
 */
export async function onceForKey<T>(scope: string, key: string, request: unknown, run: () => Promise<T>, work: KeyedWork = {}): Promise<T> {
  if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX || !/^[\x21-\x7e][\x20-\x7e]*$/.test(key)) throw new InvalidIdempotencyKeyError();
  const tableName = config.tableName();
  const itemKey = { [TABLE_KEYS.partition]: idempotencyPartition(scope), [TABLE_KEYS.sort]: idempotencyRecordSortKey(scope, key) };
  const validation = requestHash(request);
  const deadline = work.deadline ?? invocationDeadline();
  const inProgress = work.inProgress ?? 'A request sent earlier with this Idempotency-Key is still being processed';
  const stopWaitingAt = Math.min(Date.now() + WAIT_FOR_FIRST_MS, deadline - ANSWER_MARGIN_MS);
  let runningUntil = Date.now();
  for (let attempt = 0; attempt <= MAX_RETRIES; attempt += 1) {
    const now = Date.now();
    try {
      await documentClient().send(
        new PutCommand({
          TableName: tableName,
          Item: { ...itemKey, [TTL_ATTRIBUTE]: Math.round(now / 1000 + IDEMPOTENCY_SECONDS), status: 'INPROGRESS', in_progress_expiration: Math.max(deadline, now + 1), validation },
          ConditionExpression: 'attribute_not_exists(#id) OR #expiry < :now OR (#status = :inprogress AND attribute_exists(#in_progress_expiry) AND #in_progress_expiry < :now_in_millis)',
          ExpressionAttributeNames: { '#id': TABLE_KEYS.partition, '#expiry': TTL_ATTRIBUTE, '#in_progress_expiry': 'in_progress_expiration', '#status': 'status' },
          ExpressionAttributeValues: { ':now': now / 1000, ':now_in_millis': now, ':inprogress': 'INPROGRESS' },
        }),
      );
    } catch (error) {
      if (!isConditionalCheckFailure(error)) throw error;
      // A repeat (or a first call still running): what is stored decides the answer.
      for (;;) {
        const stored = (await documentClient().send(new GetCommand({ TableName: tableName, Key: itemKey, ConsistentRead: true }))).Item as StoredRecord | undefined;
        const found: Found = stored ? foundIn(stored, validation) : 'again';
        if (found === 'again') break;
        if ('answer' in found) return found.answer as T;
        runningUntil = found.runningUntil;
        if (Date.now() + POLL_MS > stopWaitingAt) throw new IdempotencyKeyInProgressError(inProgress, secondsUntil(runningUntil));
        await sleep(POLL_MS);
      }
      continue;
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
  // Other repeats took the lapsed mark over first each time: one of them is running now.
  throw new IdempotencyKeyInProgressError(inProgress, secondsUntil(Math.max(runningUntil, Date.now() + 1000)));
}

const secondsUntil = (epochMs: number) => Math.max(1, Math.ceil((epochMs - Date.now()) / 1000));
