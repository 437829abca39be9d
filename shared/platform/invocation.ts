/**
 * How long one invocation may run, as the CDK app declares it and as the function sees it
 * (the Lambda context's remaining time): work marked as in progress (an Idempotency-Key's
 * first request) is given up no later than the invocation that marked it would be stopped.
 */
import type { Context } from 'aws-lambda';

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
