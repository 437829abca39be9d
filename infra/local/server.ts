/**
 * The local API: a node:http server that turns each request into the API Gateway
 * HTTP API (payload 2.0) event that AWS would send, and invokes the very same
 * handler the Lambda function runs.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { pathToFileURL } from 'node:url';
import { listOperationRoutes, type OperationRoute } from '../routes.js';
import { BODY_LIMIT_BYTES } from '../../shared/platform/operation.js';

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

type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

export interface LocalApi {
  url: string;
  port: number;
  server: Server;
  close(): Promise<void>;
}

export async function startLocalApi(options: { port: number; host?: string; routes?: LocalRoute[] }): Promise<LocalApi> {
  const operations = new Map(listOperationRoutes().map((route) => [route.path, route]));
  const extra = new Map((options.routes ?? []).map((route) => [`${route.method} ${route.path}`, route]));
  const loaded = new Map<string, Promise<LambdaHandler>>();
  const load = (route: OperationRoute) => {
    let handler = loaded.get(route.path);
    if (!handler) {
      handler = import(pathToFileURL(route.entry).href).then((module) => module.handler as LambdaHandler);
      loaded.set(route.path, handler);
    }
    return handler;
  };

  const server = createServer((req, res) => {
    serve(req, res).catch((error) => {
      console.error('local server fault', error);
      if (!res.headersSent) send(res, { statusCode: 500, body: JSON.stringify({ success: false, messages: ['local server fault'], data: null }) });
    });
  });

  async function serve(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = (req.method ?? 'GET').toUpperCase();
    const version = url.pathname.startsWith('/api/v1/') ? 'v1' : 'v2';
    const body = await readBody(req, BODY_LIMIT_BYTES);
    if (body === 'too large') {
      send(res, failure(413, version, `The request body is larger than ${BODY_LIMIT_BYTES} bytes`));
      return;
    }
    const route = extra.get(`${method} ${url.pathname}`);
    if (route) {
      send(res, await route.handle({ method, path: url.pathname, query: url.searchParams, headers: flatHeaders(req), body }));
      return;
    }
    const operation = operations.get(url.pathname);
    if (!operation) {
      send(res, failure(404, version, `No operation answers on ${url.pathname}`));
      return;
    }
    if (method !== 'POST') {
      const refusal = failure(405, version, 'Operations are called with POST');
      send(res, { ...refusal, headers: { ...refusal.headers, allow: 'POST' } });
      return;
    }
    const handler = await load(operation);
    const event = toApiGatewayEvent(req, url, body);
    const result = await handler(event, lambdaContext(operation, event.requestContext.requestId));
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(result.headers ?? {})) headers[name] = String(value);
    res.statusCode = result.statusCode ?? 200;
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
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

async function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return 'too large';
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
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

function toApiGatewayEvent(req: IncomingMessage, url: URL, body: Buffer): APIGatewayProxyEventV2 {
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
    routeKey: `POST ${url.pathname}`,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    ...(cookies.length ? { cookies } : {}),
    headers,
    ...(url.search ? { queryStringParameters: Object.fromEntries(url.searchParams) } : {}),
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
      routeKey: `POST ${url.pathname}`,
      stage: '$default',
      time: now.toISOString(),
      timeEpoch: now.getTime(),
    },
    ...(body.length ? { body: isText ? body.toString('utf8') : body.toString('base64') } : {}),
    isBase64Encoded: !isText,
  };
}

function lambdaContext(route: OperationRoute, requestId: string): Context {
  const deadline = Date.now() + 29_000;
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
