/**
 * Transport limits of the local server (issue 7 item 7) and the client's OAuth scope
 * (issue 8 item 6): bodies over the limit, credentials checked before a large body is read,
 * wrong client secrets slowed down, and `https://<host>/api` accepted as the API's scope.
 */
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNVERIFIED_BODY_LIMIT_BYTES } from '../../infra/local/server.js';
import { BODY_LIMIT_BYTES } from '../../shared/platform/operation.js';
import { startTestService, type TestService } from '../support/service.js';

const RELEASE_INFO = '/api/v2/utils/get_release_info';
const LIST_KEYS = '/api/v2/auth/list_api_keys';
const TOKEN = '/api/auth/oauth2/token';

let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});

afterAll(async () => {
  await service?.stop();
});

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: any;
  /** Bytes of the body written before the answer came. */
  bytesSent: number;
  /** Whether the server asked for the body (100 Continue). */
  continued: boolean;
}

/**
 * POSTs a body of `announced` bytes (or chunked when null) and stops sending as soon as the
 * answer arrives, so a test sees how much the server had to receive before answering.
 */
function rawPost(path: string, options: { announced: number | null; headers?: Record<string, string>; agent?: Agent; prefix?: string }): Promise<RawAnswer> {
  const total = options.announced ?? 3 * UNVERIFIED_BODY_LIMIT_BYTES;
  const prefix = Buffer.from(options.prefix ?? '{"pad":"');
  const headers: Record<string, string> = { ...options.headers };
  if (options.announced !== null) headers['content-length'] = String(options.announced);
  return new Promise((resolve, reject) => {
    let bytesSent = 0;
    let continued = false;
    let answered = false;
    const req = request(`${service.url}${path}`, { method: 'POST', headers, agent: options.agent ?? false }, (res) => {
      answered = true;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(text), bytesSent, continued }));
    });
    // The server may close while the rest of the body is still on its way: that is the point.
    req.on('error', (error) => (answered ? undefined : reject(error)));
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const pump = () => {
      while (!answered && bytesSent < total - 2) {
        const piece = bytesSent === 0 ? prefix : chunk.subarray(0, Math.min(chunk.length, total - 2 - bytesSent));
        bytesSent += piece.length;
        if (!req.write(piece)) return void req.once('drain', pump);
      }
      if (!answered) req.end('"}');
    };
    if (headers.expect) req.on('continue', () => ((continued = true), pump()));
    else pump();
  });
}

const envelopeOf = (messagePattern: RegExp) => ({ success: false, messages: [expect.stringMatching(messagePattern)], data: null });

describe('a body over the limit', () => {
  it('answers a readable 413 as soon as its Content-Length announces it, and closes the connection', async () => {
    const answer = await rawPost(RELEASE_INFO, { announced: BODY_LIMIT_BYTES + 1 });
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual(envelopeOf(/larger than 6291456 bytes/));
    expect(answer.headers.connection).toBe('close');
    expect(answer.bytesSent).toBeLessThan(BODY_LIMIT_BYTES);
  });

  it('refuses before the client sends anything when the client waits for 100 Continue', async () => {
    const answer = await rawPost(RELEASE_INFO, { announced: BODY_LIMIT_BYTES + 1, headers: { expect: '100-continue' } });
    expect(answer.status).toBe(413);
    expect(answer.continued).toBe(false);
    expect(answer.bytesSent).toBe(0);
  });

  it('leaves a keep-alive client able to call again right after', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const refused = await rawPost(RELEASE_INFO, { announced: BODY_LIMIT_BYTES + 1, agent });
      expect(refused.status).toBe(413);
      const body = JSON.stringify({ api_key: service.administratorApiKey });
      const next = await rawPost(RELEASE_INFO, { announced: body.length, agent, prefix: body.slice(0, -2) });
      expect(next.status).toBe(200);
      expect(next.body.success).toBe(true);
    } finally {
      agent.destroy();
    }
  });
});

interface WholeBodyAnswer {
  status: number;
  body: any;
  /** The transport errors the client saw, while sending or after. */
  errors: string[];
}

/**
 * POSTs `total` bytes in 64 KiB chunks through node:http and keeps writing whatever the server
 * answers meanwhile; settles once the request is closed, so every error the client saw counts.
 */
function postWholeBody(path: string, total: number, options: { announce: boolean; headers?: Record<string, string> }): Promise<WholeBodyAnswer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.announce) headers['content-length'] = String(total);
  return new Promise((resolve) => {
    const errors: string[] = [];
    let answer: { status: number; body: any } | undefined;
    const req = request(`${service.url}${path}`, { method: 'POST', headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => (answer = { status: res.statusCode!, body: JSON.parse(text) }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => errors.push(error.code ?? error.message));
    req.on('close', () => resolve({ status: answer?.status ?? 0, body: answer?.body, errors }));
    const chunk = Buffer.alloc(64 * 1024, 'x');
    let sent = 0;
    const pump = () => {
      while (sent < total && !req.destroyed) {
        const piece = chunk.subarray(0, Math.min(chunk.length, total - sent));
        sent += piece.length;
        if (!req.write(piece)) return void req.once('drain', pump);
      }
      if (!req.destroyed) req.end();
    };
    pump();
  });
}

/**
 * The client that writes its whole request before it reads a byte of the answer, as Python's
 * http.client and many bank upload tools do: over a plain socket, the body in 64 KiB writes.
 */
function sendAllThenRead(path: string, total: number, headers: Record<string, string> = {}): Promise<WholeBodyAnswer> {
  const { hostname, port } = new URL(service.url);
  return new Promise((resolve) => {
    const errors: string[] = [];
    const received: Buffer[] = [];
    const socket = connect(Number(port), hostname);
    socket.on('error', (error: NodeJS.ErrnoException) => errors.push(error.code ?? error.message));
    socket.on('data', (chunk) => received.push(chunk));
    socket.on('close', () => {
      const text = Buffer.concat(received).toString('utf8');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      const bodyText = text.slice(text.indexOf('\r\n\r\n') + 4);
      resolve({ status, body: status ? JSON.parse(bodyText) : undefined, errors });
    });
    // Reading starts only once everything is written, as such a client does.
    socket.pause();
    const head = [`POST ${path} HTTP/1.1`, `Host: ${hostname}:${port}`, `Content-Length: ${total}`, 'Content-Type: application/json', ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`), '', ''].join('\r\n');
    const chunk = Buffer.alloc(64 * 1024, 'x');
    let sent = 0;
    const pump = () => {
      while (sent < total && !socket.destroyed) {
        const piece = chunk.subarray(0, Math.min(chunk.length, total - sent));
        sent += piece.length;
        if (!socket.write(piece)) return void socket.once('drain', pump);
      }
      socket.resume();
    };
    socket.once('connect', () => {
      socket.write(head);
      pump();
    });
  });
}

describe('a client that sends its whole body over the limit', () => {
  const total = 2 * BODY_LIMIT_BYTES;

  it('reads the 413 when the Content-Length announced it, and nothing fails while it sends', async () => {
    const answer = await postWholeBody(RELEASE_INFO, total, { announce: true });
    expect(answer.errors).toEqual([]);
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual(envelopeOf(/larger than 6291456 bytes/));
  });

  it('reads the 413 when the body is chunked and found too large while read', async () => {
    const answer = await postWholeBody(RELEASE_INFO, total, { announce: false, headers: { authorization: service.administratorApiKey } });
    expect(answer.errors).toEqual([]);
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual(envelopeOf(/larger than 6291456 bytes/));
  });

  it('reads the 413 even when it reads nothing before it has sent everything', async () => {
    const answer = await sendAllThenRead(RELEASE_INFO, total);
    expect(answer.errors).toEqual([]);
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual(envelopeOf(/larger than 6291456 bytes/));
  });

  it('reads the 401 of a wrong header credential sent with a large body', async () => {
    const answer = await sendAllThenRead(RELEASE_INFO, BODY_LIMIT_BYTES - 1024, { authorization: 'ias_not-a-key' });
    expect(answer.errors).toEqual([]);
    expect(answer.status).toBe(401);
  });
});

describe('the credential of a large body', () => {
  const large = UNVERIFIED_BODY_LIMIT_BYTES + 1024;

  it('is checked in the Authorization header before the body is read: a wrong one answers 401', async () => {
    const answer = await rawPost(RELEASE_INFO, { announced: large, headers: { authorization: 'ias_not-a-key' } });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(envelopeOf(/valid API key/));
    expect(answer.bytesSent).toBeLessThan(large);
  });

  it('lets a large body through when the header credential is valid', async () => {
    const answer = await rawPost(RELEASE_INFO, { announced: large, headers: { authorization: service.administratorApiKey } });
    expect(answer.status).toBe(200);
    expect(answer.body.success).toBe(true);
  });

  it('cannot be an api_key inside the body: a large body without a header credential answers 413 saying so', async () => {
    const announced = await rawPost(LIST_KEYS, { announced: large, prefix: `{"api_key":"${service.administratorApiKey}","pad":"` });
    expect(announced.status).toBe(413);
    expect(announced.body).toEqual(envelopeOf(/Authorization header/));
    expect(announced.bytesSent).toBeLessThan(large);

    const chunked = await rawPost(LIST_KEYS, { announced: null, prefix: `{"api_key":"${service.administratorApiKey}","pad":"` });
    expect(chunked.status).toBe(413);
    expect(chunked.body).toEqual(envelopeOf(/Authorization header/));
  });

  it('still serves an api_key in a body below the limit', async () => {
    const answer = await service.call(RELEASE_INFO, { pad: 'x'.repeat(UNVERIFIED_BODY_LIMIT_BYTES - 1024) });
    expect(answer.status).toBe(200);
    expect(answer.body.success).toBe(true);
  });
});

async function requestToken(clientSecret: string, scope?: string) {
  const basic = Buffer.from(`${service.oauthClient.clientId}:${clientSecret}`).toString('base64');
  const form = new URLSearchParams({ grant_type: 'client_credentials', ...(scope ? { scope } : {}) });
  const response = await fetch(`${service.url}${TOKEN}`, { method: 'POST', headers: { authorization: `Basic ${basic}` }, body: form.toString() });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, any> };
}

describe('the token endpoint', () => {
  it("grants the client's scope https://<host>/api (host without its port) and the token opens the API", async () => {
    const host = new URL(service.url).hostname;
    const answer = await requestToken(service.oauthClient.clientSecret, `https://${host}/api`);
    expect(answer.status).toBe(200);
    const call = await service.call(RELEASE_INFO, {}, { apiKey: null, headers: { authorization: `Bearer ${answer.body.access_token}`, 'content-type': 'application/json' } });
    expect(call.status).toBe(200);
    expect(call.body.success).toBe(true);
  });

  it('answers 429 with Retry-After after 10 wrong secrets in a minute, even to the right secret', async () => {
    for (let attempt = 0; attempt < 10; attempt += 1) expect((await requestToken(`wrong-${attempt}`)).status).toBe(401);
    const slowed = await requestToken(service.oauthClient.clientSecret);
    expect(slowed.status).toBe(429);
    expect(slowed.body.error).toBe('temporarily_unavailable');
    const retryAfter = Number(slowed.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });
});
