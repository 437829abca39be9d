/**
 * Transport limits of the local server (issue 7 item 7) and the client's OAuth scope
 * (issue 8 item 6): bodies over the limit, credentials checked before a large body is read,
 * wrong client secrets slowed down, and `https://<host>/api` accepted as the API's scope.
 */
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
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
