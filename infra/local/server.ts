/**
 * The local API: a node:http server that turns each request into the API Gateway
 * HTTP API (payload 2.0) event that AWS would send, and invokes the very same
 * handler the Lambda function runs.
 *
 * Transport limits, decided before a body is read:
 * - a body announced (Content-Length) or found to be over BODY_LIMIT_BYTES answers 413 at
 *   once, and the connection is closed, so the unread rest is never taken for a next request;
 *   the rest is read and discarded first (up to DISCARD_LIMIT_BYTES), so a client still sending
 *   reads the answer as API Gateway would give it, instead of a reset connection (EPIPE);
 * - a body over UNVERIFIED_BODY_LIMIT_BYTES, or of unknown length, is read only after the
 *   credential in the Authorization header or the session cookie has been verified: a wrong
 *   one answers 401 before the body is read. An `api_key` inside the body can only be read
 *   by reading the body, so it serves bodies up to UNVERIFIED_BODY_LIMIT_BYTES; a larger
 *   body without a header credential answers 413 naming that rule.
 * - a client that sends `Expect: 100-continue` (curl does for large bodies) gets its refusal
 *   before it sends any of the body.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { pathToFileURL } from 'node:url';
import { listOperationRoutes, type OperationRoute } from '../routes.js';
import { authenticate } from '../../shared/auth/index.js';
import { presentedCredentials } from '../../shared/platform/credentials.js';
import { AuthenticationError } from '../../shared/platform/errors.js';
import { OPERATION_TIMEOUT_SECONDS } from '../../shared/platform/invocation.js';
import { BODY_LIMIT_BYTES, type OperationHandler } from '../../shared/platform/operation.js';

/**
 * The most of a body read before any credential is verified (1 MiB). Every record the API
 * stores stays far below it (DynamoDB's item limit is 400 KB), so only bulk bodies, which
 * carry their credential in a header, go beyond it.
 */
export const UNVERIFIED_BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * The most of a refused body read and thrown away before the connection is closed under a
 * client still sending: past it the client meets a reset rather than its answer.
 */
export const DISCARD_LIMIT_BYTES = 4 * BODY_LIMIT_BYTES;

export interface LocalRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: Buffer;
}

export interface LocalResponse {
  statusCode: number;
  headers?: Record<string, string>;
  body: string | Buffer;
}

/** Endpoints that exist only locally or outside functions/ (token issuer, JWKS, API docs). */
export interface LocalRoute {
  method: 'GET' | 'POST';
  path: string;
  handle(request: LocalRequest): Promise<LocalResponse>;
}


export interface LocalApi {
  url: string;
  port: number;
  server: Server;
  close(): Promise<void>;
}

/**
 * A route of the API and the handler behind it. By default every file under functions/ is one
 * (`POST`, its TypeScript source imported); the rehearsal (infra/rehearsal) gives the
 * synthesized template's routes instead, each loading its function's bundled asset.
 */
export interface ApiOperation {
  method: string;
  path: string;
  /** Names the function in the Lambda context it is given. */
  id: string;
  load(): Promise<OperationHandler>;
}

const sourceOperation = (route: OperationRoute): ApiOperation => ({
  method: 'POST',
  path: route.path,
  id: route.id,
  load: () => import(pathToFileURL(route.entry).href).then((module) => module.handler as OperationHandler),
});

/**
 * What a laptop's answers add for the person at it, never given in AWS (nor in the rehearsal,
 * which stands for it): where a local run's key is, on a 401; on a 404 under /api/, the
 * operation nearest the name asked and where every operation is listed.
 */
export interface LocalAdvice {
  /** Added to a 401's messages. */
  whereTheKeyIs: string;
}

/** The nearest operation path to `path` by edit distance, when it is near enough to be a slip (`create_qoute`). */
export function nearestOperation(path: string, paths: readonly string[]): string | undefined {
  let best: { path: string; distance: number } | undefined;
  for (const candidate of paths) {
    const distance = editDistance(path.toLowerCase(), candidate.toLowerCase());
    if (!best || distance < best.distance) best = { path: candidate, distance };
  }
  const name = path.split('/').at(-1) ?? '';
  return best && best.distance <= Math.max(2, Math.floor(name.length / 3)) ? best.path : undefined;
}

/** Edits (insert, delete, replace, swap of neighbours) from `a` to `b`. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
    }
  }
  return rows[a.length][b.length];
}

export async function startLocalApi(options: { port: number; host?: string; routes?: LocalRoute[]; operations?: ApiOperation[]; advice?: LocalAdvice; operationTimeoutSeconds?: number }): Promise<LocalApi> {
  const operations = options.operations ?? listOperationRoutes().map(sourceOperation);
  const exact = new Map(operations.map((operation) => [`${operation.method} ${operation.path}`, operation]));
  // Paths with `{name}` segments (GET /docs/{asset}), matched segment by segment.
  const templated = operations.filter((operation) => operation.path.includes('{'));
  const extra = new Map((options.routes ?? []).map((route) => [`${route.method} ${route.path}`, route]));
  const loaded = new Map<ApiOperation, Promise<OperationHandler>>();
  const load = (operation: ApiOperation) => {
    let handler = loaded.get(operation);
    if (!handler) {
      handler = operation.load();
      loaded.set(operation, handler);
    }
    return handler;
  };
  /** The operation answering `method path`, or the methods that path answers (for a 405). */
  const find = (method: string, path: string): { operation?: ApiOperation; pathParameters?: Record<string, string>; allowed: string[] } => {
    const hit = exact.get(`${method} ${path}`);
    if (hit) return { operation: hit, allowed: [method] };
    const allowed: string[] = operations.filter((operation) => operation.path === path).map((operation) => operation.method);
    const segments = path.split('/');
    for (const operation of templated) {
      const pattern = operation.path.split('/');
      if (pattern.length !== segments.length) continue;
      const parameters: Record<string, string> = {};
      const matches = pattern.every((part, index) => {
        const name = /^\{(\w+)\}$/.exec(part)?.[1];
        if (name && segments[index]) parameters[name] = decodeURIComponent(segments[index]);
        return name ? Boolean(segments[index]) : part === segments[index];
      });
      if (!matches) continue;
      if (operation.method === method) return { operation, pathParameters: parameters, allowed: [method] };
      allowed.push(operation.method);
    }
    return { allowed };
  };

  /** A 404's message; locally it names the nearest operation and where every one is listed. */
  const notFound = (path: string): string => {
    const plain = `No operation answers on ${path}`;
    if (!options.advice || !path.startsWith('/api/')) return plain;
    const nearest = nearestOperation(path, operations.filter((operation) => operation.method === 'POST' && !operation.path.includes('{')).map((operation) => operation.path));
    return `${plain}${nearest ? `: did you mean ${nearest}?` : ''} Every operation is listed at /docs`;
  };
  /** A 405's message says how to call it: a browser or a bare curl sends GET, and the fix is one flag. */
  const methodAdvice = (method: string, allowed: string[], path: string, host: string | undefined): string => {
    const plain = `Operations are called with ${allowed.join(', ')}, not ${method.slice(0, 10)}`;
    if (!allowed.includes('POST')) return plain;
    // The address the caller used, when it is a plain host[:port], so that the command can be pasted as it is.
    const base = host && /^[\w.-]{1,100}(:\d{1,5})?$/.test(host) ? `http://${host}` : '<base URL>';
    return `${plain}: send a JSON body with POST, e.g. curl -d '{}' ${base}${path.slice(0, 120)} (curl's -d posts; or -X POST with -d and your fields)`;
  };
  /** A 401 answered locally also says where a local run's key is. */
  const withKeyAdvice = (response: LocalResponse): LocalResponse => {
    if (response.statusCode !== 401 || !options.advice) return response;
    try {
      const body = JSON.parse(String(response.body)) as { messages?: string[]; message?: string[] | string };
      // Said within the refusal's one message: clients read the first.
      const messages = Array.isArray(body.messages) ? body.messages : Array.isArray(body.message) ? body.message : undefined;
      if (!messages?.length) return response;
      messages[0] = `${messages[0].replace(/\.?$/, '.')} ${options.advice.whereTheKeyIs}`;
      return { ...response, body: JSON.stringify(body) };
    } catch {
      return response;
    }
  };

  const server = createServer((req, res) => handle(req, res, false));
  // Without this listener Node answers 100 Continue itself, and the client sends the body.
  server.on('checkContinue', (req, res) => handle(req, res, true));

  function handle(req: IncomingMessage, res: ServerResponse, expectsContinue: boolean) {
    serve(req, res, expectsContinue).catch((error) => {
      console.error('local server fault', error);
      if (!res.headersSent) refuse(req, res, { statusCode: 500, body: JSON.stringify({ success: false, messages: ['local server fault'], data: null }) });
    });
  }

  async function serve(req: IncomingMessage, res: ServerResponse, expectsContinue: boolean) {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = (req.method ?? 'GET').toUpperCase();
    const version = url.pathname.startsWith('/api/v1/') ? 'v1' : 'v2';
    const route = extra.get(`${method} ${url.pathname}`);
    const found = route ? { allowed: [method] } : find(method, url.pathname);
    const operation = found.operation;
    if (!route && !operation && found.allowed.length === 0) return refuse(req, res, failure(404, version, notFound(url.pathname)), expectsContinue);
    if (!route && !operation) {
      const refusal = failure(405, version, methodAdvice(method, found.allowed, url.pathname, req.headers.host));
      return refuse(req, res, { ...refusal, headers: { ...refusal.headers, allow: found.allowed.join(', ') } }, expectsContinue);
    }
    const handler = operation ? await load(operation) : undefined;
    // Local endpoints (token, docs) and operations that authenticate otherwise take no header credential.
    const verifiable = handler !== undefined && handler.operation?.authentication !== 'none';
    const limit = await bodyLimitFor(req, url, version, verifiable);
    if (typeof limit !== 'number') return refuse(req, res, withKeyAdvice(limit), expectsContinue);
    if (expectsContinue) res.writeContinue();
    const body = await readBody(req, limit);
    if (body === 'too large') return refuse(req, res, tooLarge(version, limit, verifiable));
    if (route) return send(res, withKeyAdvice(await route.handle({ method, path: url.pathname, query: url.searchParams, headers: flatHeaders(req), body })));

    const event = toApiGatewayEvent(req, url, body, found.pathParameters);
    const answered = await handler!(event, lambdaContext(operation!, event.requestContext.requestId, options.operationTimeoutSeconds));
    const result = answered.statusCode === 401 && !answered.isBase64Encoded ? { ...answered, body: String(withKeyAdvice({ statusCode: 401, body: answered.body ?? '' }).body) } : answered;
    res.statusCode = result.statusCode ?? 200;
    for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, String(value));
    if (result.cookies?.length) res.setHeader('set-cookie', result.cookies);
    res.end(result.isBase64Encoded ? Buffer.from(result.body ?? '', 'base64') : (result.body ?? ''));
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://localhost:${port}`,
    port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The server's own refusals carry a request id like every operation's answer. */
function failure(statusCode: number, version: string, message: string): LocalResponse {
  const body = version === 'v1' ? { success: false, message: [message], data: null } : { success: false, messages: [message], data: null };
  return { statusCode, headers: { 'content-type': 'application/json', 'x-request-id': randomUUID() }, body: JSON.stringify(body) };
}

function send(res: ServerResponse, response: LocalResponse) {
  res.statusCode = response.statusCode;
  for (const [name, value] of Object.entries(response.headers ?? { 'content-type': 'application/json' })) res.setHeader(name, value);
  res.end(response.body);
}

const hasBody = (req: IncomingMessage) => Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;

/**
 * Answers before (all of) the body is read. The unread rest would otherwise be parsed as the
 * connection's next request, so the connection is closed once the answer is sent. A client
 * still sending would meet a reset there (EPIPE) and many never read the answer: so the whole
 * answer is written at once, and the connection is ended only once the rest of the body has
 * been read and thrown away. A client waiting for 100 Continue sends nothing more: its
 * connection ends with the answer.
 */
function refuse(req: IncomingMessage, res: ServerResponse, response: LocalResponse, expectsContinue = false) {
  const unread = hasBody(req) && !req.readableEnded;
  if (!unread) return send(res, response);
  const body = Buffer.from(response.body);
  const closing = { ...response, headers: { ...(response.headers ?? { 'content-type': 'application/json' }), connection: 'close', 'content-length': String(body.length) }, body };
  if (expectsContinue) return send(res, closing);
  res.statusCode = closing.statusCode;
  for (const [name, value] of Object.entries(closing.headers)) res.setHeader(name, value);
  res.write(body);
  discardRest(req).then(
    () => res.end(),
    () => res.destroy(),
  );
}

/** Reads the rest of a refused body into nothing; refuses to go on past DISCARD_LIMIT_BYTES or a stalled client. */
function discardRest(req: IncomingMessage): Promise<void> {
  return new Promise((resolve, reject) => {
    let discarded = 0;
    const stall = setTimeout(() => fail(), 30_000);
    const fail = () => {
      clearTimeout(stall);
      req.removeAllListeners('data');
      reject(new Error('refused body not sent in full'));
    };
    req.on('data', (chunk: Buffer) => {
      discarded += chunk.length;
      stall.refresh();
      if (discarded > DISCARD_LIMIT_BYTES) fail();
    });
    req.once('end', () => {
      clearTimeout(stall);
      resolve();
    });
    req.once('close', () => (req.readableEnded ? undefined : fail()));
    req.once('error', () => fail());
    req.resume();
  });
}

function tooLarge(version: string, limit: number, verifiable: boolean): LocalResponse {
  return limit < BODY_LIMIT_BYTES && verifiable
    ? failure(413, version, `A request body over ${limit} bytes must carry its credential in the Authorization header or the session cookie, not as api_key in the body`)
    : failure(413, version, `The request body is larger than ${limit} bytes`);
}

/**
 * How much of the body may be read, or the refusal to give before reading any of it. Small
 * bodies are read at once (the handler authenticates them, api_key in the body included);
 * large ones only after their header credential has been verified.
 */
async function bodyLimitFor(req: IncomingMessage, url: URL, version: string, verifiable: boolean): Promise<number | LocalResponse> {
  const header = req.headers['content-length'];
  const announced = header === undefined ? undefined : Number(header);
  if (announced !== undefined && announced > BODY_LIMIT_BYTES) return tooLarge(version, BODY_LIMIT_BYTES, verifiable);
  if (announced !== undefined && announced <= UNVERIFIED_BODY_LIMIT_BYTES) return UNVERIFIED_BODY_LIMIT_BYTES;
  const credentials = verifiable ? presentedCredentials(toApiGatewayEvent(req, url, Buffer.alloc(0)), undefined) : {};
  if (!credentials.apiKey && !credentials.bearerToken && !credentials.sessionToken) {
    // Of unknown length (chunked): read as far as a body may go unverified.
    return announced === undefined ? UNVERIFIED_BODY_LIMIT_BYTES : tooLarge(version, UNVERIFIED_BODY_LIMIT_BYTES, verifiable);
  }
  if (!(await authenticate(credentials))) return failure(401, version, new AuthenticationError().message);
  return BODY_LIMIT_BYTES;
}

/**
 * The body, or 'too large' as soon as it passes `limit`: the stream is then left paused, not
 * destroyed (that would reset the connection under the client), for refuse() to discard.
 */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      stop();
      req.pause();
      resolve('too large');
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks));
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    const onClose = () => onError(new Error('the client closed the connection before sending its whole body'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/** API Gateway lower-cases header names and joins repeated ones with commas. */
function flatHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === 'cookie') continue;
    headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  return headers;
}

function toApiGatewayEvent(req: IncomingMessage, url: URL, body: Buffer, pathParameters?: Record<string, string>): APIGatewayProxyEventV2 {
  const routeKey = `${(req.method ?? 'POST').toUpperCase()} ${url.pathname}`;
  const now = new Date();
  const requestId = randomUUID();
  const headers = flatHeaders(req);
  const cookies = (req.headers.cookie ?? '')
    .split(';')
    .map((pair) => pair.trim())
    .filter(Boolean);
  const isText = body.length === 0 || !body.includes(0);
  return {
    version: '2.0',
    routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    ...(cookies.length ? { cookies } : {}),
    headers,
    ...(url.search ? { queryStringParameters: Object.fromEntries(url.searchParams) } : {}),
    ...(pathParameters && Object.keys(pathParameters).length ? { pathParameters } : {}),
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'localhost',
      http: {
        method: req.method ?? 'POST',
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId,
      routeKey,
      stage: '$default',
      time: now.toISOString(),
      timeEpoch: now.getTime(),
    },
    ...(body.length ? { body: isText ? body.toString('utf8') : body.toString('base64') } : {}),
    isBase64Encoded: !isText,
  };
}

function lambdaContext(route: Pick<ApiOperation, 'id'>, requestId: string, timeoutSeconds = OPERATION_TIMEOUT_SECONDS): Context {
  const deadline = Date.now() + timeoutSeconds * 1000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: route.id,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${route.id}`,
    memoryLimitInMB: '512',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${route.id}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
