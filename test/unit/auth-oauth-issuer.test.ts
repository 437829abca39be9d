import { JwtVerifier } from 'aws-jwt-verify';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { API_SCOPE, clientCredentialsOf, grantedScope, issueAccessToken, localJwks, WrongSecretThrottle } from '../../infra/local/oauth-issuer.js';

const ISSUER = 'http://localhost:3999';
const basic = (value: string) => `Basic ${Buffer.from(value).toString('base64')}`;

describe('client authentication at the token endpoint', () => {
  it('reads HTTP Basic credentials, each part form-decoded', () => {
    expect(clientCredentialsOf(basic('client%3A1:s%20e+cret'), new URLSearchParams())).toEqual({ clientId: 'client:1', clientSecret: 's e cret' });
    expect(clientCredentialsOf(basic('abc:x:y'), new URLSearchParams())).toEqual({ clientId: 'abc', clientSecret: 'x:y' });
  });

  it('reads client_id and client_secret from the form body', () => {
    expect(clientCredentialsOf(undefined, new URLSearchParams('client_id=abc&client_secret=xyz'))).toEqual({ clientId: 'abc', clientSecret: 'xyz' });
  });

  it('refuses two methods at once, malformed Basic credentials, and no credentials', () => {
    expect(clientCredentialsOf(basic('a:b'), new URLSearchParams('client_id=a'))).toMatchObject({ error: 'invalid_request' });
    expect(clientCredentialsOf(basic('no-colon'), new URLSearchParams())).toMatchObject({ error: 'invalid_client' });
    expect(clientCredentialsOf(basic('%E0%A4%A:b'), new URLSearchParams())).toMatchObject({ error: 'invalid_client' });
    expect(clientCredentialsOf(undefined, new URLSearchParams('client_id=a'))).toMatchObject({ error: 'invalid_client' });
  });
});

describe('scopes granted', () => {
  it('grants the API scope when none or it is asked for, and nothing unknown', () => {
    expect(grantedScope(null)).toBe(API_SCOPE);
    expect(grantedScope('  ')).toBe(API_SCOPE);
    expect(grantedScope(`${API_SCOPE} ${API_SCOPE}`)).toBe(API_SCOPE);
    expect(grantedScope(`${API_SCOPE} admin`)).toBeUndefined();
  });

  it("grants the scope a client spells as the API's origin followed by /api, with or without a port", () => {
    expect(grantedScope('https://api.example.com/api')).toBe('https://api.example.com/api');
    expect(grantedScope('http://localhost/api')).toBe('http://localhost/api');
    expect(grantedScope('http://127.0.0.1:3000/api')).toBe('http://127.0.0.1:3000/api');
    expect(grantedScope(`https://api.example.com/api ${API_SCOPE}`)).toBe(`https://api.example.com/api ${API_SCOPE}`);
  });

  it('refuses other paths, other schemes and decorated origins', () => {
    for (const scope of ['https://api.example.com/', 'https://api.example.com/api/', 'https://api.example.com/admin', 'ftp://api.example.com/api', 'https://user:pw@api.example.com/api', 'https://api.example.com/api?x=1', 'api.example.com/api']) {
      expect(grantedScope(scope), scope).toBeUndefined();
    }
  });
});

describe('wrong client secrets', () => {
  const MINUTE = 60_000;

  it('lets a client try 10 wrong secrets in a minute, then asks it to wait until the oldest is a minute old', () => {
    const throttle = new WrongSecretThrottle();
    const start = 1_000_000;
    for (let attempt = 0; attempt < 10; attempt += 1) {
      expect(throttle.retryAfterSeconds('portal', start + attempt * 1000)).toBe(0);
      throttle.recordFailure('portal', start + attempt * 1000);
    }
    expect(throttle.retryAfterSeconds('portal', start + 10_000)).toBe(50);
    expect(throttle.retryAfterSeconds('portal', start + MINUTE - 500)).toBe(1);
    expect(throttle.retryAfterSeconds('portal', start + MINUTE)).toBe(0);
    // Another client is not slowed by this one's failures.
    expect(throttle.retryAfterSeconds('other', start + 10_000)).toBe(0);
  });

  it('forgets the failures of a client that then gives its right secret', () => {
    const throttle = new WrongSecretThrottle();
    for (let attempt = 0; attempt < 9; attempt += 1) throttle.recordFailure('portal', attempt);
    throttle.recordSuccess('portal');
    throttle.recordFailure('portal', 10);
    expect(throttle.retryAfterSeconds('portal', 11)).toBe(0);
  });

  it('keeps failures of at most maxClients client ids, forgetting the longest quiet first', () => {
    const throttle = new WrongSecretThrottle(1, MINUTE, 2);
    throttle.recordFailure('a', 1);
    throttle.recordFailure('b', 2);
    throttle.recordFailure('c', 3);
    expect(throttle.retryAfterSeconds('a', 4)).toBe(0);
    expect(throttle.retryAfterSeconds('b', 4)).toBe(60);
    expect(throttle.retryAfterSeconds('c', 4)).toBe(60);
  });
});

describe('local access tokens', () => {
  it('carry the claims of a Cognito client-credentials access token and verify against the JWKS', async () => {
    const token = await issueAccessToken({ clientId: 'client-1', issuer: ISSUER });
    const { payload, protectedHeader } = await jwtVerify(token, createLocalJWKSet(await localJwks()), { issuer: ISSUER });
    expect(protectedHeader).toEqual({ alg: 'RS256', kid: expect.any(String) });
    expect(payload).toEqual({
      iss: ISSUER,
      sub: 'client-1',
      client_id: 'client-1',
      token_use: 'access',
      scope: API_SCOPE,
      auth_time: payload.iat,
      version: 2,
      iat: expect.any(Number),
      exp: payload.iat! + 3600,
      jti: expect.any(String),
    });
  });

  it('are accepted by aws-jwt-verify, and refused once expired', async () => {
    const verifier = JwtVerifier.create({ issuer: ISSUER, audience: null, jwksUri: `${ISSUER}/.well-known/jwks.json` });
    verifier.cacheJwks((await localJwks()) as never);
    const live = await issueAccessToken({ clientId: 'client-1', issuer: ISSUER });
    await expect(verifier.verify(live)).resolves.toMatchObject({ client_id: 'client-1' });
    const expired = await issueAccessToken({ clientId: 'client-1', issuer: ISSUER }, { now: new Date(Date.now() - 2 * 3600_000) });
    await expect(verifier.verify(expired)).rejects.toThrow(/expired/i);
  });

  it('publish only the public half of the signing key', async () => {
    const { keys } = await localJwks();
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', n: expect.any(String), e: 'AQAB' });
    for (const secret of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(keys[0]).not.toHaveProperty(secret);
  });
});
