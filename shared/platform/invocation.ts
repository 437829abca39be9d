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
const invocation = ((globalThis as Record<symbol, unknown>)[Symbol.for('insurance-admin.invocation')] ??= new AsyncLocalStorage<{ commitBy: number }>()) as AsyncLocalStorage<{ commitBy: number }>;

/**
 * Runs `work` as an invocation stopped at `deadline`: its irreversible writes are not started
 * once too little time is left to finish them (assertTimeToCommit). The margin is a quarter of
 * the time given, at most COMMIT_MARGIN_MS.
 */
export function withinInvocation<T>(deadline: number, work: () => Promise<T>): Promise<T> {
  const margin = Math.min(COMMIT_MARGIN_MS, Math.max(0, deadline - Date.now()) / 4);
  return invocation.run({ commitBy: deadline - margin }, work);
}

/**
 * Refuses to start an irreversible write the invocation may not live to finish: under load the
 * caller is told to retry (503, Retry-After) with nothing written, instead of the invocation being
 * stopped with its write in flight. Outside an invocation (scripts, tests of services) nothing is refused.
 */
export function assertTimeToCommit(): void {
  const current = invocation.getStore();
  if (current && Date.now() > current.commitBy) {
    throw new ServiceBusyError('The service is busy and the request ran out of time before it saved anything; nothing was changed: retry in 5 seconds', 5);
  }
}
