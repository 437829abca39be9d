/**
 * Runs a write at most once per idempotency key: the lifecycle, over a persistence layer it is
 * given (the model is Powertools idempotency's: an in-progress record claimed first, the answer
 * saved over it, the record deleted when the call fails). The first answer is stored and a
 * retry with the same key answers it again without running the write; the same key with a
 * different request is refused; a write that fails leaves no record, so it can be retried.
 * Knows no business and no storage: the caller names the scope, the key and what the request
 * was; the store (`IdempotencyStore`) keeps the records.
 *
 * The stores: `shared/platform/idempotency-dynamodb.ts` (the service's table, in Powertools
 * 2.35's record format) and `shared/platform/idempotency-memory.ts` (for unit tests). Operations
 * declare `idempotent` and the operation factory attaches the lifecycle as a middleware
 * (`shared/platform/idempotent-operations.ts`); consumers call `onceForKey`.
 */
import { createHash } from 'node:crypto';
import { BusinessRuleError, RetryLaterError } from './errors.js';
import { invocationDeadline } from './invocation.js';

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

/** Powertools' hash of a value (its key's and its payload validation's): MD5 of the deep-sorted JSON, base64. */
export const powertoolsHash = (value: unknown) => createHash('md5').update(JSON.stringify(deepSort(value))).digest('base64');

/** What a repeat's request is compared on: Powertools' payload validation hash. */
export const requestHash = (request: unknown) => powertoolsHash(request);

/** One key's record, as a store keeps it. */
export interface IdempotencyRecord {
  status?: 'INPROGRESS' | 'COMPLETED' | 'EXPIRED';
  /** When the record is forgotten (epoch seconds: the table's TTL). */
  expiresAt?: number;
  /** While in progress: when the invocation that claimed it is stopped (epoch ms); its mark has lapsed after that. */
  inProgressUntil?: number;
  /** The request's hash (requestHash): a repeat must be the same request. */
  validation?: string;
  /** The first call's answer (plain JSON), once completed. */
  answer?: unknown;
}

/**
 * The persistence layer of the lifecycle, Powertools' four operations. A store keeps one record
 * per (scope, key); it decides nothing but the condition of `saveInProgress`.
 */
export interface IdempotencyStore {
  /**
   * Writes (scope, key)'s record in progress, unless a live one is there: one not expired
   * (`expiresAt` in epoch seconds before `nowMs`) and not an in-progress mark that has lapsed
   * (`inProgressUntil` before `nowMs`). Answers whether it wrote it.
   */
  saveInProgress(scope: string, key: string, record: { validation: string; expiresAt: number; inProgressUntil: number }, nowMs: number): Promise<boolean>;
  /** The record as stored now (a strongly consistent read), or none. */
  getRecord(scope: string, key: string): Promise<IdempotencyRecord | undefined>;
  /** The first call's answer, over its in-progress record. */
  saveSuccess(scope: string, key: string, record: { validation: string; expiresAt: number; answer: unknown }): Promise<void>;
  /** Forgets the record: the call failed, and a retry may run it again. */
  deleteRecord(scope: string, key: string): Promise<void>;
}

/** One call made once per key. */
export interface KeyedCall {
  /** The records' partition: one per operation or consumer. */
  scope: string;
  /** What makes two calls one (an operation's: the caller's contact id and their Idempotency-Key). */
  key: string;
  /** What the caller asked: a repeat must ask the same. */
  request: unknown;
  /**
   * When the invocation doing the work is stopped (epoch ms; OperationContext.deadline): its
   * in-progress mark lapses then, so an invocation killed mid-work blocks its key no longer
   * than the function's timeout. Without it, an operation's timeout from now.
   */
  deadline?: number;
  /** What a repeat is told is in progress, in the caller's terms ("The payment sent earlier with this Idempotency-Key is still being posted"). */
  inProgress?: string;
}

/** A key claimed for a first call: its answer saved, or the claim given up when the call failed. */
export interface Claim {
  complete(answer: unknown): Promise<void>;
  release(): Promise<void>;
}

/** What starting a keyed call found: the first call's answer (a repeat), or the key claimed for this one. */
export type Started = { repeat: true; answer: unknown } | { repeat: false; claim: Claim };

/** A record found on a repeat: the stored answer, a first call still running (until when), or none to give. */
type Found = { answer: unknown } | { runningUntil: number } | 'again';

function foundIn(stored: IdempotencyRecord, validation: string): Found {
  if (stored.validation !== validation) throw new IdempotencyKeyReusedError();
  const expired = (stored.expiresAt ?? 0) * 1000 < Date.now();
  if (expired) return 'again';
  if (stored.status === 'COMPLETED') return { answer: stored.answer };
  // In progress: a first call still running, unless its mark has lapsed (then try again).
  if (stored.inProgressUntil !== undefined && stored.inProgressUntil < Date.now()) return 'again';
  return { runningUntil: stored.inProgressUntil ?? Date.now() + IDEMPOTENCY_SECONDS * 1000 };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const secondsUntil = (epochMs: number) => Math.max(1, Math.ceil((epochMs - Date.now()) / 1000));
const expiryFromNow = () => Math.round(Date.now() / 1000 + IDEMPOTENCY_SECONDS);

/**
 * Claims `call.key` for a first call, or finds the first call's answer (a repeat). A repeat
 * arriving while the first call runs waits a little for its answer, then is refused with 409 and
 * Retry-After (the moment the first call has answered or been given up). The same key with a
 * different request is refused.
 */
export async function startKeyedCall(store: IdempotencyStore, call: KeyedCall): Promise<Started> {
  const { scope, key } = call;
  if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX || !/^[\x21-\x7e][\x20-\x7e]*$/.test(key)) throw new InvalidIdempotencyKeyError();
  const validation = requestHash(call.request);
  const deadline = call.deadline ?? invocationDeadline();
  const inProgress = call.inProgress ?? 'A request sent earlier with this Idempotency-Key is still being processed';
  const stopWaitingAt = Math.min(Date.now() + WAIT_FOR_FIRST_MS, deadline - ANSWER_MARGIN_MS);
  let runningUntil = Date.now();
  for (let attempt = 0; attempt <= MAX_RETRIES; attempt += 1) {
    const now = Date.now();
    if (await store.saveInProgress(scope, key, { validation, expiresAt: Math.round(now / 1000 + IDEMPOTENCY_SECONDS), inProgressUntil: Math.max(deadline, now + 1) }, now)) {
      return {
        repeat: false,
        claim: {
          complete: (answer) => store.saveSuccess(scope, key, { validation, expiresAt: expiryFromNow(), answer: answer ?? null }),
          release: () => store.deleteRecord(scope, key).catch(() => undefined),
        },
      };
    }
    // A repeat (or a first call still running): what is stored decides the answer.
    for (;;) {
      const stored = await store.getRecord(scope, key);
      const found: Found = stored ? foundIn(stored, validation) : 'again';
      if (found === 'again') break;
      if ('answer' in found) return { repeat: true, answer: found.answer };
      runningUntil = found.runningUntil;
      if (Date.now() + POLL_MS > stopWaitingAt) throw new IdempotencyKeyInProgressError(inProgress, secondsUntil(runningUntil));
      await sleep(POLL_MS);
    }
  }
  // Other repeats took the lapsed mark over first each time: one of them is running now.
  throw new IdempotencyKeyInProgressError(inProgress, secondsUntil(Math.max(runningUntil, Date.now() + 1000)));
}

/**
 * `run` once for `call.key`: a repeat answers the first result (the lifecycle as one function,
 * for consumers). The answer must be plain JSON.
 */
export async function once<T>(store: IdempotencyStore, call: KeyedCall, run: () => Promise<T>): Promise<T> {
  const started = await startKeyedCall(store, call);
  if (started.repeat) return started.answer as T;
  let answer: T;
  try {
    answer = await run();
  } catch (error) {
    await started.claim.release();
    throw error;
  }
  await started.claim.complete(answer);
  return answer;
}
