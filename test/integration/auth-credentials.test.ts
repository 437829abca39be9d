/**
 * Every kind of credential a caller may present (README.md, "A first call"), accepted when
 * valid and refused with a 401 envelope when not, through the local server; and the
 * local OAuth token endpoint and JWKS that stand in for Cognito.
 */
import { randomUUID } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { issueAccessToken } from '../../infra/local/oauth-issuer.js';
import { createSession } from '../../shared/auth/store.js';
import { digestToken } from '../../shared/auth/secrets.js';
import { startTestService, type TestService } from '../support/service.js';

const LIST_KEYS = '/api/v2/auth/list_api_keys';
const SESSION = '/api/v2/auth/session';

let service: TestService;
/** Every line the service writes while this file runs, to look for leaked credentials. */
const written: string[] = [];

beforeAll(async () => {
  // Loggers read their level when an operation is first loaded: log everything here.
  process.env.POWERTOOLS_LOG_LEVEL = 'DEBUG';
  for (const stream of [process.stdout, process.stderr]) {
    vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return true;
    });
  }
  service = await startTestService();
});

afterAll(async () => {
  await service?.stop();
  vi.restoreAllMocks();
});

/** Asks the local token endpoint for a token with HTTP Basic client authentication. */
async function requestToken(
  form: Record<string, string> = { grant_type: 'client_credentials' },
  client: { clientId: string; clientSecret: string } | null = service.oauthClient,
) {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (client) {
    const basic = `${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`;
    headers.authorization = `Basic ${Buffer.from(basic).toString('base64')}`;
  }
  const response = await fetch(`${service.url}/api/auth/oauth2/token`, { method: 'POST', headers, body: new URLSearchParams(form).toString() });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, any> };
}

async function adminToken(): Promise<string> {
  const answer = await requestToken();
  expect(answer.status).toBe(200);
  return answer.body.access_token as string;
}

const withBearer = (token: string) => ({ apiKey: null, headers: { authorization: `Bearer ${token}` } });

function expectUnauthenticated(answer: { status: number; body: unknown }) {
  expect(answer.status).toBe(401);
  expect(answer.body).toEqual({ success: false, messages: [expect.any(String)], data: null });
}

function sessionTokenOf(headers: Headers): string {
  const cookie = headers.getSetCookie().find((value) => value.startsWith('ias_session='));
  expect(cookie).toBeDefined();
  return decodeURIComponent(cookie!.split(';')[0].slice('ias_session='.length));
}

describe('valid credentials of every kind are accepted', () => {
  it('accepts api_key in the body', async () => {
    const answer = await service.call(LIST_KEYS, { contact_id: service.administratorContactId });
    expect(answer.status).toBe(200);
    expect(answer.body.success).toBe(true);
  });

  it('accepts the key as the whole Authorization header', async () => {
    const answer = await service.call(LIST_KEYS, { contact_id: service.administratorContactId }, { apiKey: null, headers: { authorization: service.administratorApiKey } });
    expect(answer.status).toBe(200);
    expect(answer.body.success).toBe(true);
  });

  it('accepts the key as a bearer value in the Authorization header', async () => {
    const answer = await service.call(
      LIST_KEYS,
      { contact_id: service.administratorContactId },
      { apiKey: null, headers: { authorization: `Bearer ${service.administratorApiKey}` } },
    );
    expect(answer.status).toBe(200);
    expect(answer.body.success).toBe(true);
  });

  it('accepts a bearer JWT from the local token endpoint', async () => {
    const answer = await service.call(LIST_KEYS, { contact_id: service.administratorContactId }, withBearer(await adminToken()));
    expect(answer.status).toBe(200);
    expect(answer.body.success).toBe(true);
  });

  it('accepts the session cookie minted by the session operation', async () => {
    const opened = await service.call(SESSION, {});
    const token = sessionTokenOf(opened.headers);
    const answer = await service.call(LIST_KEYS, { contact_id: service.administratorContactId }, { apiKey: null, headers: { cookie: `ias_session=${token}` } });
    expect(answer.status).toBe(200);
    expect(answer.body.success).toBe(true);
  });
});

describe('invalid credentials are refused with 401 and an envelope', () => {
  it('refuses a request with no credential at all', async () => {
    expectUnauthenticated(await service.call(LIST_KEYS, { contact_id: service.administratorContactId }, { apiKey: null }));
  });

  it('refuses an unknown key in the body and in the Authorization header', async () => {
    expectUnauthenticated(await service.call(LIST_KEYS, { contact_id: service.administratorContactId }, { apiKey: 'ias_unknown' }));
    expectUnauthenticated(await service.call(LIST_KEYS, {}, { apiKey: null, headers: { authorization: 'ias_unknown' } }));
    expectUnauthenticated(await service.call(LIST_KEYS, {}, { apiKey: null, headers: { authorization: 'Bearer ias_unknown' } }));
  });

  it('refuses a revoked key from the next call on', async () => {
    const created = await service.call('/api/v2/auth/create_api_key', { contact_id: service.administratorContactId, description: 'to be revoked' });
    const apiKey = created.body.data.api_key as string;
    expect((await service.call(LIST_KEYS, { contact_id: service.administratorContactId }, { apiKey })).status).toBe(200);
    await service.call('/api/v2/auth/revoke_api_key', { key_id: created.body.data.key_id });
    expectUnauthenticated(await service.call(LIST_KEYS, { contact_id: service.administratorContactId }, { apiKey }));
    expectUnauthenticated(await service.call(LIST_KEYS, {}, { apiKey: null, headers: { authorization: apiKey } }));
  });

  it('refuses an expired token', async () => {
    const token = await issueAccessToken({ clientId: service.oauthClient.clientId }, { now: new Date(Date.now() - 2 * 3600_000) });
    expectUnauthenticated(await service.call(LIST_KEYS, {}, withBearer(token)));
  });

  it('refuses a token from another issuer, signed with its own key', async () => {
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    const kid = (await exportJWK(publicKey)).n!.slice(0, 16);
    const token = await new SignJWT({ client_id: service.oauthClient.clientId, token_use: 'access', scope: 'insurance-admin/api' })
      .setProtectedHeader({ alg: 'RS256', kid })
      .setIssuer('https://issuer.example.com')
      .setSubject(service.oauthClient.clientId)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
    expectUnauthenticated(await service.call(LIST_KEYS, {}, withBearer(token)));
  });

  it('refuses a token naming the local issuer and its key id but signed with another key', async () => {
    const genuine = await adminToken();
    const { privateKey } = await generateKeyPair('RS256');
    const forged = await new SignJWT(decodeJwt(genuine)).setProtectedHeader(decodeProtectedHeader(genuine) as { alg: string }).sign(privateKey);
    expectUnauthenticated(await service.call(LIST_KEYS, {}, withBearer(forged)));
  });

  it('refuses a token whose signature was tampered with', async () => {
    const [header, payload, signature] = (await adminToken()).split('.');
    const middle = Math.floor(signature.length / 2);
    const flipped = signature[middle] === 'A' ? 'B' : 'A';
    const tampered = `${header}.${payload}.${signature.slice(0, middle)}${flipped}${signature.slice(middle + 1)}`;
    expectUnauthenticated(await service.call(LIST_KEYS, {}, withBearer(tampered)));
  });

  it('refuses a token whose payload was altered under the original signature', async () => {
    const [header, payload, signature] = (await adminToken()).split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    const altered = Buffer.from(JSON.stringify({ ...claims, client_id: 'someone-else' })).toString('base64url');
    expectUnauthenticated(await service.call(LIST_KEYS, {}, withBearer(`${header}.${altered}.${signature}`)));
  });

  it('refuses a genuine token whose client has no client record', async () => {
    const token = await issueAccessToken({ clientId: `client-${randomUUID()}` });
    expectUnauthenticated(await service.call(LIST_KEYS, {}, withBearer(token)));
  });

  it('refuses an expired session cookie, and the session operation denies it and clears the cookie', async () => {
    const { token } = await createSession(
      { contactId: service.administratorContactId, apiKeyDigest: digestToken(service.administratorApiKey) },
      new Date(Date.now() - 9 * 3600_000),
    );
    expectUnauthenticated(await service.call(LIST_KEYS, {}, { apiKey: null, headers: { cookie: `ias_session=${token}` } }));
    const denied = await service.call(SESSION, {}, { apiKey: null, headers: { cookie: `ias_session=${token}` } });
    expect(denied.status).toBe(200);
    expect(denied.body).toEqual({ permissionDenied: true, success: false });
    expect(denied.headers.getSetCookie()).toEqual([expect.stringMatching(/^ias_session=;.*Max-Age=0/)]);
  });

  it('refuses an unknown session cookie', async () => {
    expectUnauthenticated(await service.call(LIST_KEYS, {}, { apiKey: null, headers: { cookie: 'ias_session=sess_made-up' } }));
  });

  it('refuses a session cookie with a broken %-escape as unknown rather than failing', async () => {
    const cookie = { apiKey: null, headers: { cookie: 'ias_session=%E0%A4%A' } };
    expectUnauthenticated(await service.call(LIST_KEYS, {}, cookie));
    const denied = await service.call(SESSION, {}, cookie);
    expect(denied.status).toBe(200);
    expect(denied.body).toEqual({ permissionDenied: true, success: false });
  });
});

describe('the session operation', () => {
  it('issues an HttpOnly, Secure, SameSite session cookie for an api_key in the body', async () => {
    const answer = await service.call(SESSION, {});
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      success: true,
      messages: [],
      data: { contact_id: service.administratorContactId, expires_at: expect.any(String) },
    });
    const hoursLeft = (Date.parse(answer.body.data.expires_at) - Date.now()) / 3600_000;
    expect(hoursLeft).toBeGreaterThan(7.9);
    expect(hoursLeft).toBeLessThanOrEqual(8);
    const [cookie] = answer.headers.getSetCookie();
    expect(cookie).toMatch(/^ias_session=[^;]+; HttpOnly; Secure; SameSite=Lax; Path=\/; Max-Age=28800$/);
  });

  it('issues a session for the API key in the Authorization header', async () => {
    const answer = await service.call(SESSION, {}, { apiKey: null, rawBody: '', headers: { authorization: service.administratorApiKey } });
    expect(answer.body).toMatchObject({ success: true, messages: [], data: { contact_id: service.administratorContactId } });
    expect(sessionTokenOf(answer.headers)).toMatch(/^sess_/);
  });

  it('confirms a live session cookie without minting another', async () => {
    const token = sessionTokenOf((await service.call(SESSION, {})).headers);
    const answer = await service.call(SESSION, {}, { apiKey: null, headers: { cookie: `ias_session=${token}` } });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ success: true, messages: [expect.stringContaining('Session is active until')] });
    expect(answer.headers.getSetCookie()).toEqual([]);
  });

  it('answers permissionDenied for no credential, an unknown key, or a bearer token', async () => {
    for (const options of [{ apiKey: null }, { apiKey: 'ias_unknown' }, withBearer(await adminToken())]) {
      const answer = await service.call(SESSION, {}, options);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ permissionDenied: true, success: false });
      expect(answer.headers.getSetCookie()).toEqual([]);
    }
  });

  it('ends the sessions of a key when the key is revoked', async () => {
    const created = await service.call('/api/v2/auth/create_api_key', { contact_id: service.administratorContactId, description: 'browser login' });
    const token = sessionTokenOf((await service.call(SESSION, {}, { apiKey: created.body.data.api_key })).headers);
    const cookie = { apiKey: null, headers: { cookie: `ias_session=${token}` } };
    expect((await service.call(LIST_KEYS, { contact_id: service.administratorContactId }, cookie)).status).toBe(200);
    await service.call('/api/v2/auth/revoke_api_key', { key_id: created.body.data.key_id });
    expectUnauthenticated(await service.call(LIST_KEYS, { contact_id: service.administratorContactId }, cookie));
    expect((await service.call(SESSION, {}, cookie)).body).toEqual({ permissionDenied: true, success: false });
  });
});

describe('the local token endpoint', () => {
  it('issues a one-hour RS256 access token shaped like a Cognito client-credentials token', async () => {
    const answer = await requestToken();
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600 });
    const header = decodeProtectedHeader(answer.body.access_token);
    const claims = decodeJwt(answer.body.access_token);
    expect(header).toMatchObject({ alg: 'RS256', kid: expect.any(String) });
    expect(claims).toMatchObject({
      iss: service.url,
      sub: service.oauthClient.clientId,
      client_id: service.oauthClient.clientId,
      token_use: 'access',
      scope: 'insurance-admin/api',
      jti: expect.any(String),
    });
    expect(claims.exp! - claims.iat!).toBe(3600);

    const jwks = await fetch(`${service.url}/.well-known/jwks.json`);
    expect(jwks.status).toBe(200);
    const { keys } = (await jwks.json()) as { keys: Array<Record<string, unknown>> };
    expect(keys).toEqual([expect.objectContaining({ kty: 'RSA', kid: header.kid, alg: 'RS256', use: 'sig' })]);
    expect(keys[0]).not.toHaveProperty('d');
  });

  it('accepts the client credentials in the form body too', async () => {
    const answer = await requestToken(
      { grant_type: 'client_credentials', client_id: service.oauthClient.clientId, client_secret: service.oauthClient.clientSecret, scope: 'insurance-admin/api' },
      null,
    );
    expect(answer.status).toBe(200);
    const token = answer.body.access_token as string;
    expect((await service.call(LIST_KEYS, { contact_id: service.administratorContactId }, withBearer(token))).status).toBe(200);
  });

  it('answers invalid_client with 401 and a Basic challenge for a wrong secret, an unknown client or none', async () => {
    for (const client of [
      { ...service.oauthClient, clientSecret: 'wrong' },
      { clientId: 'no-such-client', clientSecret: 'whatever' },
      null,
    ]) {
      const answer = await requestToken({ grant_type: 'client_credentials' }, client);
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ error: 'invalid_client', error_description: expect.any(String) });
      expect(answer.headers.get('www-authenticate')).toMatch(/^Basic /);
    }
  });

  it('answers RFC 6749 errors for a missing or unsupported grant type and an unknown scope', async () => {
    expect(await requestToken({})).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect(await requestToken({ grant_type: 'password' })).toMatchObject({ status: 400, body: { error: 'unsupported_grant_type' } });
    expect(await requestToken({ grant_type: 'client_credentials', scope: 'everything' })).toMatchObject({ status: 400, body: { error: 'invalid_scope' } });
  });
});

describe('credentials never leak', () => {
  it('never writes a key, secret, token or cookie to the log or echoes it in an answer', async () => {
    const apiKey = service.administratorApiKey;
    const accessToken = await adminToken();
    const opened = await service.call(SESSION, {});
    const sessionToken = sessionTokenOf(opened.headers);
    const refused = await service.call(LIST_KEYS, {}, { apiKey: 'ias_leak-probe' });
    await service.call(LIST_KEYS, { contact_id: service.administratorContactId }, withBearer(accessToken));
    await service.call(LIST_KEYS, {}, { apiKey: null, headers: { cookie: `ias_session=${sessionToken}` } });

    expect(JSON.stringify(refused.body)).not.toContain('ias_leak-probe');
    expect(JSON.stringify(opened.body)).not.toContain(apiKey);
    const log = written.join('');
    expect(log).toContain('"path":"/api/v2/auth/list_api_keys"');
    for (const secret of [apiKey, 'ias_leak-probe', accessToken, sessionToken, service.oauthClient.clientSecret]) {
      expect(log).not.toContain(secret);
    }
  });
});
