/** The one place where thrown errors become status codes and envelopes. */
import type { Logger } from '@aws-lambda-powertools/logger';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { envelope, jsonResponse, type ApiVersion } from './envelope.js';
import {
  AuthenticationError,
  BusinessRuleError,
  MalformedBodyError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RetryLaterError,
  ServiceBusyError,
} from './errors.js';
import { withoutLongEcho } from './validation.js';

export function errorResponse(
  error: unknown,
  version: ApiVersion,
  requestId: string,
  logger: Logger,
  failureData?: (messages: string[]) => unknown,
  messageShape: 'list' | 'single' = 'list',
  /** Maps a logged fault's stack to the source (shared/platform/stack-traces.ts, loaded by the caller for a fault only); as it is without. */
  withSourceMappedStack: (error: unknown) => unknown = (fault) => fault,
): APIGatewayProxyStructuredResultV2 {
  if (error instanceof BusinessRuleError) {
    const messages = error.messages.map(withoutLongEcho);
    const data = error.data ?? failureData?.(messages) ?? null;
    if (messageShape === 'single') return jsonResponse(200, { success: false, message: messages.join('; '), data }, { requestId });
    return jsonResponse(200, envelope(version, false, messages, data), { requestId });
  }
  if (error instanceof RetryLaterError) {
    const headers = { 'retry-after': String(error.retryAfterSeconds) };
    if (messageShape === 'single') return jsonResponse(409, { success: false, message: error.message, data: null }, { requestId, headers });
    return jsonResponse(409, envelope(version, false, [error.message], null), { requestId, headers });
  }
  const busy = error instanceof ServiceBusyError ? error : busyOf(error);
  if (busy) {
    // Logged as a fault would be (the cause, never the input), but answered as what it is: try again shortly.
    logger.warn('service busy', { requestId, error: withSourceMappedStack(error) as Error });
    const headers = { 'retry-after': String(busy.retryAfterSeconds) };
    if (messageShape === 'single') return jsonResponse(503, { success: false, message: busy.message, data: null }, { requestId, headers });
    return jsonResponse(503, envelope(version, false, [busy.message], null), { requestId, headers });
  }
  if (error instanceof AuthenticationError) return jsonResponse(401, envelope(version, false, [error.message], null), { requestId });
  if (error instanceof PermissionDeniedError) return jsonResponse(403, envelope(version, false, [error.message], null), { requestId });
  if (error instanceof MalformedBodyError) return jsonResponse(400, envelope(version, false, [error.message], null), { requestId });
  if (error instanceof PayloadTooLargeError) return jsonResponse(413, envelope(version, false, [error.message], null), { requestId });
  logger.error('unexpected fault', { requestId, error: withSourceMappedStack(error) as Error });
  return jsonResponse(
    500,
    envelope(version, false, [`An unexpected error occurred; quote request id ${requestId} when reporting it`], null),
    { requestId },
  );
}

/** Store errors that mean "too busy now" once the SDK's own retries are spent: throttling, a store fault, a timeout, a dropped connection. */
const BUSY_ERROR_NAMES = new Set([
  'ThrottlingException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'TransactionConflictException',
  'TransactionInProgressException',
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
]);
const BUSY_ERROR_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT']);

/**
 * The 503 an unexpected error stands for when it is load, not a fault: the invocation stopped at
 * its deadline (middy's early timeout: the request's outcome is not known) or a store that stays
 * busy. Anything else is a fault (500).
 */
function busyOf(error: unknown): ServiceBusyError | undefined {
  const { name, code, cause, $metadata } = (error ?? {}) as { name?: string; code?: string; cause?: { package?: string }; $metadata?: { httpStatusCode?: number } };
  if (name === 'TimeoutError' && cause?.package === '@middy/core') {
    return new ServiceBusyError('The service is busy and the request did not finish in the time allowed; it may or may not have been saved: check before sending it again, or send it again with its Idempotency-Key, in 5 seconds', 5);
  }
  const storeBusy = (name !== undefined && BUSY_ERROR_NAMES.has(name)) || (code !== undefined && BUSY_ERROR_CODES.has(code)) || ($metadata?.httpStatusCode ?? 0) >= 500;
  return storeBusy ? new ServiceBusyError('The service is busy (its store did not answer in time); retry in 5 seconds', 5) : undefined;
}
