/**
 * The operation factory: every entry file in functions/ is one call to
 * defineOperation(). Body parsing, v1 unwrapping, authentication, permission
 * checks, validation, the envelope, error mapping and the request log line
 * happen here once, for every operation.
 *
 * The platform knows no insurance: which credentials are valid is the auth area's to say,
 * through the Authenticator that shared/define-operation.ts binds to this factory once.
 */
import { randomUUID } from 'node:crypto';
import middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import { Logger } from '@aws-lambda-powertools/logger';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type * as z from 'zod/mini';
import { presentedCredentials, type PresentedCredentials } from './credentials.js';
import { moduleOnFirstUse } from './modules-on-first-use.js';
import { DataWithMessages, envelope, FileReply, fileResponse, jsonResponse, Reply, type ApiVersion } from './envelope.js';
import { AuthenticationError, MalformedBodyError, PayloadTooLargeError, PermissionDeniedError, ValidationError } from './errors.js';
import { errorResponse } from './error-mapping.js';
import type { QueueName } from './queues.js';
import type { Tracing } from './tracing.js';
import { invocationDeadline, withinInvocation } from './invocation.js';
import { hasPermission, type Authenticator, type Principal } from './principal.js';
import { bodyDepthProblem, schemaOnFirstUse, validate } from './validation.js';

/** Lambda's synchronous payload limit; API Gateway would refuse larger bodies anyway. */
export const BODY_LIMIT_BYTES = 6 * 1024 * 1024;

export interface OperationContext {
  /** The authenticated caller; absent only for operations with `authentication: 'none'`. */
  principal: Principal;
  requestId: string;
  logger: Logger;
  event: APIGatewayProxyEventV2;
  /** What the request presented, judged or not: for operations that authenticate themselves. */
  credentials: PresentedCredentials;
  /** The caller's `Idempotency-Key` header, for writes that move money or documents. */
  idempotencyKey?: string;
  /**
   * When this invocation is stopped (epoch ms, from the Lambda context's remaining time): an
   * Idempotency-Key's in-progress mark lapses then, so a killed invocation blocks no retry longer.
   */
  deadline: number;
  /**
   * The body exactly as received (after base64 decoding, before any parsing), for operations
   * whose caller signs the bytes it sent: re-serialised JSON would not match the signature.
   */
  rawBody: string;
}

/** What an operation's own authentication rule judges: the request as it arrived. */
export interface ArrivedRequest {
  rawBody: string;
  /** Header names lower-cased, as API Gateway gives them. */
  headers: Record<string, string>;
}

export interface ResourceAccess {
  table?: 'read' | 'write';
  bucket?: 'read' | 'write';
  /** Queues the function sends to (shared/platform/queues.ts). */
  queues?: QueueName[];
  /**
   * Secrets the function is given: `signature-vendor` is the built-in signature vendor's
   * webhook secret (SIGNATURE_VENDOR_SECRET) with the API's public address (PUBLIC_BASE_URL);
   * `data-key` is the sealing key (URL_OVERRIDE_ENCRYPTION_KEY, shared/platform/sealing.ts), for
   * functions outside URL_OVERRIDE_MODULES that seal or open a value (event subscriptions' secrets).
   */
  secrets?: Array<'signature-vendor' | 'data-key'>;
}

/** Any zod 4 schema: the house builds them with zod/mini (shared/platform/request-fields.ts). */
export type RequestSchema = z.core.$ZodType;

export interface OperationDefinition<Schema extends RequestSchema, Result> {
  version: ApiVersion;
  /** The operation's name as it appears in its path. */
  name: string;
  summary: string;
  /** Permission the caller needs (`area:action`); null lets any authenticated caller in. */
  permission: string | null;
  /** `none` for callers that prove themselves otherwise (a vendor webhook's signature). */
  authentication?: 'required' | 'none';
  /**
   * The operation's own rule for callers without a credential (with `authentication: 'none'`):
   * it sees the raw body and the headers before anything is parsed or validated, and throws
   * (an AuthenticationError answers 401) to refuse the request before the handler runs.
   */
  authenticateRequest?: (request: ArrivedRequest) => void | Promise<void>;
  /** v1 wrapper key; the wrapped and the flat form are both accepted. */
  wrapper?: 'json_dict' | 'json_obj';
  /**
   * The request's schema, or (better) a function that builds it: it is then built on the first
   * request (or the first read of the operation's description), not when the function's module
   * loads, so a cold start does not pay for building zod schemas it has not used yet.
   */
  input: Schema | (() => Schema);
  /**
   * The `data` of a failure that carries none of its own, for operations whose contract
   * puts the error messages there (storeRoles answers its list of messages).
   */
  failureData?: (messages: string[]) => unknown;
  /**
   * `single` for operations whose contract documents `{success, message}` with message one
   * string, failures included (cancel_policy): a business failure's messages are joined.
   */
  messageShape?: 'list' | 'single';
  /** What the function's role must be granted in AWS (least privilege, read by the CDK app). */
  resources: ResourceAccess;
  /** X-Ray tracing of each invocation and its AWS calls (shared/platform/tracing.ts moneyPathTracing): the money paths. */
  tracing?: Tracing;
  handle: (input: z.core.output<Schema>, context: OperationContext) => Promise<Result | Reply | DataWithMessages | FileReply>;
}

export interface OperationMetadata {
  version: ApiVersion;
  name: string;
  summary: string;
  permission: string | null;
  authentication: 'required' | 'none';
  wrapper?: 'json_dict' | 'json_obj';
  /** `single` where failures answer one `message` string (the description's examples show it). */
  messageShape?: 'single';
  /** The request's schema (built on first read when the definition gave a function that builds it). */
  readonly input: RequestSchema;
  resources: ResourceAccess;
  /** Traced with X-Ray: the CDK app turns the function's active tracing on. */
  traced: boolean;
}

export type OperationHandler = ((event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>) & {
  operation: OperationMetadata;
};

const MALFORMED_JSON = 'Invalid or malformed JSON was provided';

/** Where a body stopped being JSON: worked out only for a body that is not JSON, so no cold start parses it. */
const jsonErrors = /* @__PURE__ */ moduleOnFirstUse<typeof import('./json-errors.js')>(new URL('./json-errors.mjs', import.meta.url), new URL('./json-errors.ts', import.meta.url));

export type DefineOperation = <Schema extends RequestSchema, Result>(definition: OperationDefinition<Schema, Result>) => OperationHandler;

/** The factory of entry files, bound to the authenticator that judges their callers' credentials. */
export function operationFactory(authenticator: Authenticator): DefineOperation {
  return (definition) => defineOperationWith(authenticator, definition);
}

function defineOperationWith<Schema extends RequestSchema, Result>(authenticator: Authenticator, definition: OperationDefinition<Schema, Result>): OperationHandler {
  // Made by the first request, not when the function loads: constructing it is part of every cold start otherwise.
  let logger: Logger | undefined;
  const loggerOf = () =>
    (logger ??= new Logger({
      serviceName: 'insurance-admin',
      persistentKeys: { operation: `${definition.version}/${definition.name}` },
    }));
  const authentication = definition.authentication ?? 'required';
  const requestSchema = schemaOnFirstUse(definition.input);
  if (definition.authenticateRequest && authentication !== 'none') {
    throw new Error(`${definition.version}/${definition.name}: authenticateRequest is the rule of an operation with authentication 'none'`);
  }

  const core = async (event: APIGatewayProxyEventV2, lambdaContext: Context): Promise<APIGatewayProxyStructuredResultV2> => {
    const requestId = requestIdOf(event, lambdaContext);
    const body = event.body as unknown;
    // JSON that is not an object (an array, a string) is a validation failure, answered after
    // authentication like any other; only a body that is not JSON at all is a 400.
    const isObject = body !== null && typeof body === 'object' && !Array.isArray(body);

    const rawBody = rawBodies.get(event) ?? '';
    const credentials = presentedCredentials(event, body);
    if (definition.authenticateRequest) {
      await definition.authenticateRequest({ rawBody, headers: lowerCasedHeaders(event.headers) });
    }
    let principal: Principal | undefined;
    if (authentication === 'required') {
      principal = await authenticator.authenticate(credentials);
      if (!principal) throw new AuthenticationError();
      if (definition.permission && !hasPermission(principal, definition.permission)) throw new PermissionDeniedError();
    }
    (lambdaContext as ContextWithCaller).callerContactId = principal?.contactId;

    if (!isObject) throw new ValidationError(['body: must be a JSON object']);
    const unwrapped = unwrap(body as Record<string, unknown>, definition);
    // Refused before the schema walks it: no field of any operation nests this deep.
    const tooDeep = bodyDepthProblem(unwrapped);
    if (tooDeep) throw new ValidationError([tooDeep]);
    const parsed = validate(requestSchema(), unwrapped);
    if (!parsed.success) throw new ValidationError(parsed.messages);

    const idempotencyKey = event.headers?.['idempotency-key'] ?? event.headers?.['Idempotency-Key'];
    const deadline = invocationDeadline(lambdaContext);
    const result = await withinInvocation(deadline, () =>
      definition.handle(parsed.data, {
        principal: principal as Principal,
        requestId,
        logger: loggerOf(),
        event,
        credentials,
        rawBody,
        deadline,
        ...(idempotencyKey ? { idempotencyKey } : {}),
      }),
    );
    if (result instanceof Reply) {
      return jsonResponse(result.options.statusCode ?? 200, result.body, { ...result.options, requestId });
    }
    if (result instanceof FileReply) return fileResponse(result, requestId);
    if (result instanceof DataWithMessages) {
      return jsonResponse(200, envelope(definition.version, true, result.messages, result.data ?? null), { requestId });
    }
    return jsonResponse(200, envelope(definition.version, true, [], result ?? null), { requestId });
  };

  const handler = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>()
    .use(requestLogLine(loggerOf))
    .use(bodyAlwaysJson())
    .use(httpJsonBodyParser())
    .use({
      onError: async (request) => {
        const error = request.error as Error & { statusCode?: number };
        // A body that is not JSON is told where it stopped being JSON (the parser's own message differs by Node version and quotes the body).
        const mapped =
          error.statusCode === 415 && error.message === MALFORMED_JSON ? new MalformedBodyError((await jsonErrors()).malformedJsonMessage(typeof request.event.body === 'string' ? request.event.body : '')) : error;
        request.response = errorResponse(mapped, definition.version, requestIdOf(request.event, request.context), loggerOf(), definition.failureData, definition.messageShape);
      },
    })
    .handler(core);

  const invoked = definition.tracing ? definition.tracing.traced(handler) : handler;
  return Object.assign(invoked as unknown as OperationHandler, {
    operation: {
      version: definition.version,
      name: definition.name,
      summary: definition.summary,
      permission: definition.permission,
      authentication,
      ...(definition.wrapper ? { wrapper: definition.wrapper } : {}),
      ...(definition.messageShape === 'single' ? { messageShape: 'single' as const } : {}),
      get input() {
        return requestSchema();
      },
      resources: definition.resources,
      traced: !!definition.tracing,
    },
  });
}

/** The body each event arrived with, kept aside before the JSON parser replaces it. */
const rawBodies = new WeakMap<APIGatewayProxyEventV2, string>();

function lowerCasedHeaders(headers: APIGatewayProxyEventV2['headers'] | undefined): Record<string, string> {
  const lowered: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) if (value !== undefined) lowered[name.toLowerCase()] = value;
  return lowered;
}

type ContextWithCaller = Context & { callerContactId?: string; startedAt?: number };

function requestIdOf(event: APIGatewayProxyEventV2, context: Context): string {
  return event.requestContext?.requestId ?? context?.awsRequestId ?? randomUUID();
}

/**
 * Real clients omit the Content-Type (or send curl's form default) with a JSON body,
 * and send nothing at all for "no parameters": both are read as JSON here.
 */
function bodyAlwaysJson(): middy.MiddlewareObj<APIGatewayProxyEventV2> {
  return {
    before: async (request) => {
      const event = request.event;
      let raw = event.body ?? '';
      if (event.isBase64Encoded && raw) {
        raw = Buffer.from(raw, 'base64').toString('utf8');
        event.isBase64Encoded = false;
      }
      if (Buffer.byteLength(raw, 'utf8') > BODY_LIMIT_BYTES) throw new PayloadTooLargeError(BODY_LIMIT_BYTES);
      rawBodies.set(event, raw);
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

/** One structured line per request: never the body, never a credential. */
function requestLogLine(loggerOf: () => Logger): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2> {
  const write = (request: middy.Request<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>) => {
    const context = request.context as ContextWithCaller;
    loggerOf().info('request', {
      requestId: requestIdOf(request.event, request.context),
      path: request.event.rawPath,
      statusCode: request.response?.statusCode,
      durationMs: context.startedAt ? Date.now() - context.startedAt : undefined,
      callerContactId: context.callerContactId,
    });
  };
  return {
    before: async (request) => {
      (request.context as ContextWithCaller).startedAt = Date.now();
    },
    after: async (request) => write(request),
    onError: async (request) => write(request),
  };
}

/** v1 operations documented with a wrapper accept `{json_dict: {...}}` and the flat form alike. */
function unwrap(body: Record<string, unknown>, definition: { version: ApiVersion; wrapper?: string }): Record<string, unknown> {
  if (definition.version !== 'v1') return body;
  for (const key of definition.wrapper ? [definition.wrapper] : ['json_dict', 'json_obj']) {
    let inner = body[key];
    if (typeof inner === 'string') {
      try {
        inner = JSON.parse(inner);
      } catch {
        continue;
      }
    }
    if (inner && typeof inner === 'object' && !Array.isArray(inner)) {
      const { [key]: _wrapped, ...rest } = body;
      return { ...rest, ...(inner as Record<string, unknown>) };
    }
  }
  return body;
}
