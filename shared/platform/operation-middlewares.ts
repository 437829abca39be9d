/**
 * The operation pipeline's steps, each a middy middleware that the factory (operation.ts)
 * attaches once, in this order, the handler last:
 *
 *   bodyAsJson            the body read as JSON whatever the Content-Type says (413 past the limit), then middy's JSON parser
 *   callerAuthentication  the presented credentials picked out; the operation's own rule, or the authenticator (401)
 *   permissionCheck       the caller holds the operation's permission (403)
 *   v1Unwrapping          a v1 `json_dict` / `json_obj` wrapper taken off
 *   requestValidation     a JSON object, not too deep, that the request schema accepts (the field messages)
 *   envelope              the handler's answer in the v1 or v2 envelope (or its own shape)
 *   idempotency           (operations that declare `idempotent`: idempotent-operations.ts) a retry answers the first answer
 *   handler               the operation's `handle`, within the invocation's deadline
 *
 * and one error handler (`errorHandler`: every thrown error becomes its status and envelope,
 * error-mapping.ts), with the request's log line written by middy's `requestEnd` hook however
 * the request ended. A step hands what it found to the next through the request's
 * `OperationState` (`stateOf`).
 */
import { randomUUID } from 'node:crypto';
import type middy from '@middy/core';
import type { Logger } from '@aws-lambda-powertools/logger';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import * as z from 'zod/mini';
import { presentedCredentials, type PresentedCredentials } from './credentials.js';
import { DataWithMessages, envelope as envelopeBody, FileReply, fileResponse, jsonResponse, Reply, type ApiVersion } from './envelope.js';
import { moduleOnFirstUse } from './modules-on-first-use.js';
import { AuthenticationError, BusinessRuleError, MalformedBodyError, PayloadTooLargeError, PermissionDeniedError, ValidationError } from './errors.js';
import { errorResponse } from './error-mapping.js';
import { invocationDeadline } from './invocation.js';
import { hasPermission, type Authenticator, type Principal } from './principal.js';
import { bodyDepthProblem } from './validation.js';

/** Lambda's synchronous payload limit; API Gateway would refuse larger bodies anyway. */
export const BODY_LIMIT_BYTES = 6 * 1024 * 1024;

/** Until the envelope step, the response is the handler's answer (a result, a Reply, a FileReply, DataWithMessages). */
export type OperationRequest = middy.Request<APIGatewayProxyEventV2, unknown, Error, Context>;
export type OperationMiddleware = middy.MiddlewareObj<APIGatewayProxyEventV2, unknown, Error, Context>;
export type OperationResponse = APIGatewayProxyStructuredResultV2;

/** What one request's steps found, each for the steps after it. */
export interface OperationState {
  requestId: string;
  startedAt: number;
  /** When this invocation is stopped (epoch ms, from the Lambda context's remaining time). */
  deadline: number;
  /** The body exactly as received (after base64 decoding, before any parsing). */
  rawBody: string;
  /** What the request presented, judged or not. */
  credentials: PresentedCredentials;
  /** The authenticated caller (operations with authentication 'required'). */
  principal?: Principal;
  /** The caller's `Idempotency-Key` header. */
  idempotencyKey?: string;
  /** The body's fields as the schema reads them: the parsed body, a v1 wrapper taken off. */
  fields?: unknown;
  /** The validated request. */
  input?: unknown;
  /** Reads begun beside the caller's authentication (the operation's `beginWithCaller`), for the handler's invocation. */
  begun?: Map<string, Promise<unknown>>;
  /** The handler itself failed (not the invocation's timeout, not a step after it): what it claimed may be given up. */
  handlerFailed?: boolean;
}

/** Keyed by the event: middy hands the handler the event and the context, and the context may be shared by concurrent calls (tests). */
const states = new WeakMap<APIGatewayProxyEventV2, OperationState>();

export function requestIdOf(event: APIGatewayProxyEventV2, context: Context): string {
  return event.requestContext?.requestId ?? context?.awsRequestId ?? randomUUID();
}

/** The request's state, begun by the first step that asks. */
export function stateOf(request: Pick<OperationRequest, 'event' | 'context'>): OperationState {
  let state = states.get(request.event);
  if (!state) {
    const headers = request.event.headers;
    const idempotencyKey = headers?.['idempotency-key'] ?? headers?.['Idempotency-Key'];
    state = {
      requestId: requestIdOf(request.event, request.context),
      startedAt: Date.now(),
      deadline: invocationDeadline(request.context),
      rawBody: '',
      credentials: {},
      ...(idempotencyKey ? { idempotencyKey } : {}),
    };
    states.set(request.event, state);
  }
  return state;
}

/**
 * Real clients omit the Content-Type (or send curl's form default) with a JSON body,
 * and send nothing at all for "no parameters": both are read as JSON here, before middy's parser.
 */
export function bodyAsJson(): OperationMiddleware {
  return {
    before: async (request) => {
      const state = stateOf(request);
      const event = request.event;
      let raw = event.body ?? '';
      if (event.isBase64Encoded && raw) {
        raw = Buffer.from(raw, 'base64').toString('utf8');
        event.isBase64Encoded = false;
      }
      if (Buffer.byteLength(raw, 'utf8') > BODY_LIMIT_BYTES) throw new PayloadTooLargeError(BODY_LIMIT_BYTES);
      state.rawBody = raw;
      // A UTF-8 byte-order mark is not JSON, but some clients' libraries put one in front.
      if (raw.charCodeAt(0) === 0xfeff) raw = raw.slice(1);
      event.body = raw.trim() === '' ? '{}' : raw;
      // The parser insists on a JSON media type; the contract reads every body as JSON.
      const headers = (event.headers ??= {});
      delete headers['Content-Type'];
      headers['content-type'] = 'application/json';
    },
  };
}

/** What an operation's own authentication rule judges: the request as it arrived. */
export interface ArrivedRequest {
  rawBody: string;
  /** Header names lower-cased, as API Gateway gives them. */
  headers: Record<string, string>;
}

function lowerCasedHeaders(headers: APIGatewayProxyEventV2['headers'] | undefined): Record<string, string> {
  const lowered: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) if (value !== undefined) lowered[name.toLowerCase()] = value;
  return lowered;
}

/**
 * The credentials the request presents (`api_key` in the body, `Authorization`, the session
 * cookie), picked out for every operation; then the operation's own rule for callers without a
 * credential, or the authenticator's judgement of them (401 when it knows no caller).
 */
export function callerAuthentication(
  authenticator: Authenticator,
  rule: { authentication?: 'required' | 'none'; authenticateRequest?: (request: ArrivedRequest) => void | Promise<void>; beginWithCaller?: BeginWithCaller },
): OperationMiddleware {
  return {
    before: async (request) => {
      const state = stateOf(request);
      // The parsed body, before a v1 wrapper is taken off: `api_key` sits at its top.
      state.credentials = presentedCredentials(request.event, request.event.body as unknown);
      if (rule.authenticateRequest) await rule.authenticateRequest({ rawBody: state.rawBody, headers: lowerCasedHeaders(request.event.headers) });
      if (rule.authentication === 'none') return;
      // Only for a request that presents a credential: one without is refused before anything is read for it.
      if (rule.beginWithCaller && isObject(state.fields) && Object.keys(state.credentials).length) state.begun = begunFor(rule.beginWithCaller, state.fields);
      const principal = await authenticator.authenticate(state.credentials);
      if (!principal) throw new AuthenticationError();
      state.principal = principal;
    },
  };
}

/**
 * The reads an operation's handler makes first, keyed by the request's own fields alone (a policy
 * number's lookup, an exposure's locator), begun beside the caller's authentication rather than
 * after it (issue 47): each a key (as the store that reads it names it, readBegunWithCaller) and
 * its read, begun (invocation.ts, readBegun). The fields are the parsed body with a v1 wrapper
 * taken off, unvalidated: it checks their type itself, and begins nothing for a field it does not
 * find. What they read is answered to the handler only, once the steps let the caller through.
 */
export type BeginWithCaller = (fields: Record<string, unknown>) => Iterable<readonly [string, Promise<unknown>]>;

/** What `begin` begins for `fields`; nothing when it fails on fields it did not foresee (they are not validated yet: validation names them). */
function begunFor(begin: BeginWithCaller, fields: Record<string, unknown>): Map<string, Promise<unknown>> | undefined {
  try {
    return new Map(begin(fields));
  } catch {
    return undefined;
  }
}

/** The caller holds the operation's permission (`area:action`), or 403. */
export function permissionCheck(permission: string): OperationMiddleware {
  return {
    before: async (request) => {
      const { principal } = stateOf(request);
      if (principal && !hasPermission(principal, permission)) throw new PermissionDeniedError();
    },
  };
}

/** v1 operations documented with a wrapper accept `{json_dict: {...}}` and the flat form alike; v2 bodies are read as they are. */
export function v1Unwrapping(definition: { version: ApiVersion; wrapper?: 'json_dict' | 'json_obj' }): OperationMiddleware {
  return {
    before: async (request) => {
      const body = request.event.body as unknown;
      stateOf(request).fields = definition.version === 'v1' && isObject(body) ? unwrap(body, definition.wrapper) : body;
    },
  };
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

function unwrap(body: Record<string, unknown>, wrapper?: 'json_dict' | 'json_obj'): Record<string, unknown> {
  for (const key of wrapper ? [wrapper] : ['json_dict', 'json_obj']) {
    let inner = body[key];
    if (typeof inner === 'string') {
      try {
        inner = JSON.parse(inner);
      } catch {
        continue;
      }
    }
    if (isObject(inner)) {
      const { [key]: _wrapped, ...rest } = body;
      return { ...rest, ...inner };
    }
  }
  return body;
}

/** The house wording of failures (validation-messages.ts), loaded by the first request that fails: no cold start parses it. */
const wording = /* @__PURE__ */ moduleOnFirstUse<typeof import('./validation-messages.js')>(new URL('./validation-messages.mjs', import.meta.url), new URL('./validation-messages.ts', import.meta.url));

/**
 * The request's fields judged by its schema: JSON that is not an object (an array, a string)
 * is a validation failure like any other, answered after authentication; a body nested deeper
 * than any field of any operation is refused before the schema walks it. A request that fails
 * is parsed again with the house wording (validation-messages.ts), which the first failure loads.
 */
export function requestValidation(schema: () => z.core.$ZodType): OperationMiddleware {
  return {
    before: async (request) => {
      const state = stateOf(request);
      if (!isObject(state.fields)) throw new ValidationError(['body: must be a JSON object']);
      const tooDeep = bodyDepthProblem(state.fields);
      if (tooDeep) throw new ValidationError([tooDeep]);
      const parsed = z.safeParse(schema(), state.fields);
      if (parsed.success) {
        state.input = parsed.data;
        return;
      }
      const { houseErrorMap, describeIssues } = await wording();
      const worded = z.safeParse(schema(), state.fields, { error: houseErrorMap });
      if (!worded.success) throw new ValidationError(describeIssues(worded.error.issues));
      state.input = worded.data;
    },
  };
}

/** The envelope step, and the answering it does, for a step that answers early (a repeat's first answer). */
export interface EnvelopeStep extends OperationMiddleware {
  answer(request: Pick<OperationRequest, 'event' | 'context'>, result: unknown): OperationResponse;
}

/** The handler's answer as the response: in the version's envelope, or the operation's own shape (Reply), or a file. */
export function envelope(version: ApiVersion): EnvelopeStep {
  const answer = (request: Pick<OperationRequest, 'event' | 'context'>, result: unknown): OperationResponse => {
    const { requestId } = stateOf(request);
    if (result instanceof Reply) return jsonResponse(result.options.statusCode ?? 200, result.body, { ...result.options, requestId });
    if (result instanceof FileReply) return fileResponse(result, requestId);
    if (result instanceof DataWithMessages) return jsonResponse(200, envelopeBody(version, true, result.messages, result.data ?? null), { requestId });
    return jsonResponse(200, envelopeBody(version, true, [], result ?? null), { requestId });
  };
  return {
    answer,
    after: async (request) => {
      request.response = answer(request, request.response);
    },
  };
}

/** What @middy/http-json-body-parser throws for a body that is not JSON: a 415 with this message. */
const MALFORMED_JSON = 'Invalid or malformed JSON was provided';

/** Where a body stopped being JSON: worked out only for a body that is not JSON, so no cold start parses it. */
const jsonErrors = /* @__PURE__ */ moduleOnFirstUse<typeof import('./json-errors.js')>(new URL('./json-errors.mjs', import.meta.url), new URL('./json-errors.ts', import.meta.url));

/** A fault's stack mapped to the source: loaded by the first fault logged, so no cold start parses it. */
const stackTraces = /* @__PURE__ */ moduleOnFirstUse<typeof import('./stack-traces.js')>(new URL('./stack-traces.mjs', import.meta.url), new URL('./stack-traces.ts', import.meta.url));

/** The one error handler: every error, thrown by any step or the handler, becomes its status and envelope (error-mapping.ts). */
export function errorHandler(
  definition: { version: ApiVersion; failureData?: (messages: string[]) => unknown; messageShape?: 'list' | 'single' },
  loggerOf: () => Logger,
): OperationMiddleware {
  return {
    onError: async (request) => {
      const error = request.error as Error & { statusCode?: number };
      // The parser's 415 for a body that is not JSON at all is the contract's 400, told where the body stopped being JSON (the parser's own message differs by Node version and quotes the body).
      const mapped =
        error.statusCode === 415 && error.message === MALFORMED_JSON ? new MalformedBodyError((await jsonErrors()).malformedJsonMessage(typeof request.event.body === 'string' ? request.event.body : '')) : error;
      // A business refusal is answered, never logged as a fault: only another error loads the stack mapping.
      const mapStack = mapped instanceof BusinessRuleError ? undefined : await stackTraces().then((module) => module.withSourceMappedStack, () => undefined);
      request.response = errorResponse(mapped, definition.version, stateOf(request).requestId, loggerOf(), definition.failureData, definition.messageShape, mapStack);
    },
  };
}

/**
 * One structured line per request, never the body, never a credential: middy's `requestEnd`
 * hook, so it is written however the request ended (the handler's answer, an early answer, the
 * error handler's).
 */
export function requestLogLine(loggerOf: () => Logger): { requestEnd: (request: OperationRequest) => void } {
  return {
    requestEnd: (request) => {
      const state = stateOf(request);
      loggerOf().info('request', {
        requestId: state.requestId,
        path: request.event.rawPath,
        statusCode: (request.response as OperationResponse | undefined)?.statusCode,
        durationMs: Date.now() - state.startedAt,
        callerContactId: state.principal?.contactId,
      });
    },
  };
}
