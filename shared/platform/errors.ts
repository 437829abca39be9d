/**
 * Typed errors that business code throws. The operation factory maps each
 * of them to a status code and an envelope in one place (error-mapping.ts).
 */

/** A business or validation rule refused the request: HTTP 200, success false. */
export class BusinessRuleError extends Error {
  readonly messages: string[];
  /** Extra fields an operation documents on failure (for example `data.exists`). */
  readonly data: unknown;
  constructor(messages: string | string[], data: unknown = null) {
    const list = Array.isArray(messages) ? messages : [messages];
    super(list.join('; '));
    this.name = 'BusinessRuleError';
    this.messages = list;
    this.data = data;
  }
}

/** Input failed the operation's schema; one message per offending field path. */
export class ValidationError extends BusinessRuleError {
  constructor(messages: string[]) {
    super(messages);
    this.name = 'ValidationError';
  }
}

/** A record the caller asked for does not exist, or lies outside the caller's reach. */
export class NotFoundError extends BusinessRuleError {
  constructor(what: string) {
    super(`${what} was not found`);
    this.name = 'NotFoundError';
  }
}

/** Another writer changed the record since it was read: the caller should reload and retry. */
export class ConcurrentChangeError extends BusinessRuleError {
  constructor(what: string) {
    super(`${what} was changed by another request; reload it and try again`);
    this.name = 'ConcurrentChangeError';
  }
}

/**
 * The request cannot be answered yet, but can be later (an earlier request with its
 * Idempotency-Key is still running): HTTP 409 with `Retry-After`. The message says, in the
 * caller's terms, what is in progress and when to retry.
 */
export class RetryLaterError extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
    this.name = 'RetryLaterError';
  }
}

/**
 * The service is too busy to answer now (its store slow or throttling, the invocation's time
 * running out): HTTP 503 with `Retry-After`. Thrown before anything is written when the service
 * knows nothing was; the message says what to do.
 */
export class ServiceBusyError extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds = 5,
  ) {
    super(message);
    this.name = 'ServiceBusyError';
  }
}

/** No valid credential: HTTP 401. */
export class AuthenticationError extends Error {
  constructor(message = 'A valid API key, bearer token or session is required') {
    super(message);
    this.name = 'AuthenticationError';
  }
}

/** A valid credential without the permission the operation needs: HTTP 403. */
export class PermissionDeniedError extends Error {
  constructor(message = 'You do not have permission to perform this operation') {
    super(message);
    this.name = 'PermissionDeniedError';
  }
}

/** The body is not JSON at all: HTTP 400. */
export class MalformedBodyError extends Error {
  constructor(message = 'The request body is not valid JSON') {
    super(message);
    this.name = 'MalformedBodyError';
  }
}

/** The body is larger than the service accepts: HTTP 413. */
export class PayloadTooLargeError extends Error {
  constructor(limitBytes: number) {
    super(`The request body is larger than ${limitBytes} bytes`);
    this.name = 'PayloadTooLargeError';
  }
}
