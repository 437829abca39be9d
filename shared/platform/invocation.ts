/**
 * How long one invocation may run, as the CDK app declares it and as the function sees it
 * (the Lambda context's remaining time): work marked as in progress (an Idempotency-Key's
 * first request) is given up no later than the invocation that marked it would be stopped.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context } from 'aws-lambda';
import { ServiceBusyError } from './errors.js';

/** An operation's function timeout: within API Gateway's 30 s integration limit (infra/constructs/service-function.ts). */
export const OPERATION_TIMEOUT_SECONDS = 29;

/**
 * When the invocation of `context` is stopped (epoch milliseconds). Without a Lambda context
 * (a script, a test calling a service directly), an operation's timeout from now.
 */
export function invocationDeadline(context?: Partial<Pick<Context, 'getRemainingTimeInMillis'>> | null, timeoutSeconds = OPERATION_TIMEOUT_SECONDS): number {
  const remaining = typeof context?.getRemainingTimeInMillis === 'function' ? context.getRemainingTimeInMillis() : timeoutSeconds * 1000;
  return Date.now() + remaining;
}

/** The longest an irreversible write (a transaction, a number taken) is left before the deadline: the most a slow store may take to answer it. */
const COMMIT_MARGIN_MS = 3000;

/** One store for every copy of this module in the process: a module loaded on first use (its own bundle) runs inside the invocation too. */
const invocation = ((globalThis as Record<symbol, unknown>)[Symbol.for('insurance-admin.invocation')] ??= new AsyncLocalStorage<InvocationStore>()) as AsyncLocalStorage<InvocationStore>;

interface InvocationStore {
  commitBy: number;
  /** Reads the operation began beside its caller's authentication, by the key of what they read: each taken once. */
  begun?: Map<string, Promise<unknown>>;
}

/**
 * Runs `work` as an invocation stopped at `deadline`: its irreversible writes are not started
 * once too little time is left to finish them (assertTimeToCommit). The margin is a quarter of
 * the time given, at most COMMIT_MARGIN_MS.
 */
export function withinInvocation<T>(deadline: number, work: () => Promise<T>, begun?: Map<string, Promise<unknown>>): Promise<T> {
  const margin = Math.min(COMMIT_MARGIN_MS, Math.max(0, deadline - Date.now()) / 4);
  return invocation.run({ commitBy: deadline - margin, begun }, work);
}

/**
 * The read of `key` this invocation began beside its caller's authentication (the operation's
 * `beginWithCaller`, issue 47), taken once, or `read` made now. A begun read starts after the
 * request arrived and answers only a caller the steps let through, who then passes every check the
 * move makes of what it read, as if read here: the same answer, a round trip sooner. A second read
 * of the key in the invocation is made afresh, and so is every read after its first write (assertTimeToCommit).
 */
export function readBegunWithCaller<T>(key: string, read: () => Promise<T>): Promise<T> {
  const begun = invocation.getStore()?.begun;
  const ahead = begun?.get(key) as Promise<T> | undefined;
  return begun?.delete(key) ? ahead! : read();
}

/**
 * A read of what `id` names begun now for an operation's beginWithCaller, under the key its store
 * takes it by (`kind` and the id): nothing for a field that is no string (the body is not validated yet;
 * an id no record has reads nothing, one DynamoDB refuses fails the read, which only the handler would await).
 */
export function readBegun(kind: string, id: unknown, read: (id: string) => Promise<unknown>): Array<readonly [string, Promise<unknown>]> {
  if (typeof id !== 'string') return [];
  const ahead = read(id);
  ahead.catch(() => undefined);
  return [[kind + id, ahead]];
}

/**
 * A store's read of what an id names, as a handler makes it (`read`: the one begun beside the
 * caller when there is one) and as an operation's beginWithCaller begins it (`begin`), under one
 * key built in one place, so that the two cannot name the same record differently.
 */
export function readableBesideCaller<T>(kind: string, read: (id: string) => Promise<T>): { read: (id: string) => Promise<T>; begin: (id: unknown) => Array<readonly [string, Promise<unknown>]> } {
  return {
    read: (id) => readBegunWithCaller(kind + id, () => read(id)),
    begin: (id) => readBegun(kind, id, read),
  };
}

/**
 * Refuses to start an irreversible write the invocation may not live to finish: under load the
 * caller is told to retry (503, Retry-After) with nothing written, instead of the invocation being
 * stopped with its write in flight. Outside an invocation (scripts, tests of services) nothing is refused.
 */
export function assertTimeToCommit(): void {
  const current = invocation.getStore();
  // A read begun before the invocation's first write is not answered after it: what follows the write reads afresh.
  if (current) current.begun = undefined;
  if (current && Date.now() > current.commitBy) {
    throw new ServiceBusyError('The service is busy and the request ran out of time before it saved anything; nothing was changed: retry in 5 seconds', 5);
  }
}
