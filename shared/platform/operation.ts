/**
 * The operation factory: every entry file in functions/ is one call to defineOperation().
 * Body parsing, v1 unwrapping, authentication, permission checks, validation, idempotency, the
 * envelope, error mapping and the request log line happen here once, for every operation: each
 * a middy middleware (operation-middlewares.ts, idempotent-operations.ts) attached in one order,
 * the operation's `handle` last, one error handler.
 *
 * The platform knows no insurance: which credentials are valid is the auth area's to say,
 * through the Authenticator that shared/define-operation.ts binds to this factory once; where
 * idempotency records are kept is the store that module gives `defineIdempotentOperation`.
 */
import middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import { Logger } from '@aws-lambda-powertools/logger';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type * as z from 'zod/mini';
import type { PresentedCredentials } from './credentials.js';
import type { DataWithMessages, FileReply, Reply, ApiVersion } from './envelope.js';
import type { IdempotencyAttachment, IdempotentDeclaration } from './idempotent-operations.js';
import type { QueueName } from './queues.js';
import type { Tracing } from './tracing.js';
import { withinInvocation } from './invocation.js';
import {
  bodyAsJson,
  callerAuthentication,
  envelope,
  errorHandler,
  permissionCheck,
  requestLogLine,
  requestValidation,
  stateOf,
  v1Unwrapping,
  type ArrivedRequest,
  type BeginWithCaller,
  type OperationMiddleware,
} from './operation-middlewares.js';
import type { Authenticator, Principal } from './principal.js';
import { schemaOnFirstUse } from './validation.js';

export { BODY_LIMIT_BYTES, type ArrivedRequest } from './operation-middlewares.js';

export interface OperationContext {
  /** The authenticated caller; absent only for operations with `authentication: 'none'`. */
  principal: Principal;
  requestId: string;
  logger: Logger;
  event: APIGatewayProxyEventV2;
  /** What the request presented, judged or not: for operations that authenticate themselves. */
  credentials: PresentedCredentials;
  /**
   * The caller's `Idempotency-Key` header, for an operation that names its work by it (a
   * deliverable's file, a large lockbox file's run); one that declares `idempotent` need not read it.
   */
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
  /**
   * The handler's first reads keyed by the request's fields alone, begun beside the caller's
   * authentication (operation-middlewares.ts, BeginWithCaller): a round trip sooner (issue 47).
   */
  beginWithCaller?: BeginWithCaller;
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
  /**
   * A write that moves money or documents (DESIGN.md 4): with the caller's `Idempotency-Key`
   * header, a retry answers the first answer and runs nothing, the same key with a different
   * request is refused, a failed call leaves no record. Declared here, attached by the factory
   * (`defineIdempotentOperation` of shared/define-operation.ts, which gives it its store).
   */
  idempotent?: IdempotentDeclaration<z.core.output<Schema>>;
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

export type DefineOperation = <Schema extends RequestSchema, Result>(definition: OperationDefinition<Schema, Result>) => OperationHandler;

/** What a factory is given beside its authenticator. */
export interface FactoryOptions {
  /** Makes an operation's `idempotent` declaration its pipeline's step; a factory without it defines no idempotent operation. */
  idempotency?: IdempotencyAttachment;
}

/**
 * An operation's pipeline, in the order middy runs the steps' `before` (their `after` and
 * `onError` run in reverse); the operation's `handle` comes last.
 */
function operationSteps(
  definition: OperationDefinition<RequestSchema, unknown>,
  operation: { named: string; authentication: 'required' | 'none'; requestSchema: () => RequestSchema; loggerOf: () => Logger },
  authenticator: Authenticator,
  idempotency?: IdempotencyAttachment,
): OperationMiddleware[] {
  const { authentication } = operation;
  const answering = envelope(definition.version);
  return [
    // The one error handler: attached first, so that its onError runs after every other step's.
    errorHandler(definition, operation.loggerOf),
    bodyAsJson(),
    httpJsonBodyParser() as OperationMiddleware,
    // Unwrapped before the caller is judged: the reads an operation begins beside authentication are keyed by the fields a v1 wrapper holds.
    v1Unwrapping(definition),
    callerAuthentication(authenticator, definition),
    ...(authentication === 'required' && definition.permission ? [permissionCheck(definition.permission)] : []),
    requestValidation(operation.requestSchema),
    // The idempotency step's `after` runs before the envelope's: it saves the handler's answer, not its envelope.
    answering,
    ...(definition.idempotent && idempotency ? [idempotency(definition.idempotent, operation, answering)] : []),
  ];
}

/** The factory of entry files, bound to the authenticator that judges their callers' credentials. */
export function operationFactory(authenticator: Authenticator, options: FactoryOptions = {}): DefineOperation {
  return (definition) => defineOperationWith(authenticator, options, definition);
}

function defineOperationWith<Schema extends RequestSchema, Result>(authenticator: Authenticator, options: FactoryOptions, definition: OperationDefinition<Schema, Result>): OperationHandler {
  const named = `${definition.version}/${definition.name}`;
  // Made by the first request, not when the function loads: constructing it is part of every cold start otherwise.
  let logger: Logger | undefined;
  const loggerOf = () => (logger ??= new Logger({ serviceName: 'insurance-admin', persistentKeys: { operation: named } }));
  const authentication = definition.authentication ?? 'required';
  const requestSchema = schemaOnFirstUse(definition.input);
  if (definition.authenticateRequest && authentication !== 'none') {
    throw new Error(`${named}: authenticateRequest is the rule of an operation with authentication 'none'`);
  }
  // An idempotent operation takes the factory with the store (defineIdempotentOperation), any other the one without: it does not bundle the store.
  if (!definition.idempotent !== !options.idempotency) throw new Error(`${named}: ${definition.idempotent ? 'idempotent: use defineIdempotentOperation' : 'not idempotent: use defineOperation'}`);

  const steps = operationSteps(definition, { named, authentication, requestSchema, loggerOf }, authenticator, options.idempotency);

  const handle = async (event: APIGatewayProxyEventV2, lambdaContext: Context) => {
    const state = stateOf({ event, context: lambdaContext });
    try {
      return await withinInvocation(state.deadline, () =>
        definition.handle(state.input as z.core.output<Schema>, {
          principal: state.principal as Principal,
          requestId: state.requestId,
          logger: loggerOf(),
          event,
          credentials: state.credentials,
          rawBody: state.rawBody,
          deadline: state.deadline,
          ...(state.idempotencyKey ? { idempotencyKey: state.idempotencyKey } : {}),
        }),
        state.begun,
      );
    } catch (error) {
      state.handlerFailed = true;
      throw error;
    }
  };

  const handler = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>(requestLogLine(loggerOf) as never)
    .use(steps)
    .handler(handle as never);

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
