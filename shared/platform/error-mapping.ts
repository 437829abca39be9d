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
} from './errors.js';
import { withoutLongEcho } from './validation.js';

export function errorResponse(
  error: unknown,
  version: ApiVersion,
  requestId: string,
  logger: Logger,
  failureData?: (messages: string[]) => unknown,
  messageShape: 'list' | 'single' = 'list',
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
  if (error instanceof AuthenticationError) return jsonResponse(401, envelope(version, false, [error.message], null), { requestId });
  if (error instanceof PermissionDeniedError) return jsonResponse(403, envelope(version, false, [error.message], null), { requestId });
  if (error instanceof MalformedBodyError) return jsonResponse(400, envelope(version, false, [error.message], null), { requestId });
  if (error instanceof PayloadTooLargeError) return jsonResponse(413, envelope(version, false, [error.message], null), { requestId });
  logger.error('unexpected fault', { requestId, error: error as Error });
  return jsonResponse(
    500,
    envelope(version, false, [`An unexpected error occurred; quote request id ${requestId} when reporting it`], null),
    { requestId },
  );
}
