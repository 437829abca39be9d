import { describe, expect, it } from 'vitest';
import { presentedCredentials, readCookie } from '../../shared/platform/credentials.js';
import { sessionCookie } from '../../shared/auth/sessions.js';
import { digestToken, newToken } from '../../shared/auth/secrets.js';
import { httpEvent } from '../support/events.js';

const JWT = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';

describe('credentials picked out of a request', () => {
  it('takes api_key from the body', () => {
    expect(presentedCredentials(httpEvent('{}'), { api_key: 'ias_body' })).toEqual({ apiKey: 'ias_body' });
  });

  it('takes a bare Authorization header, or a bearer value that is not a JWT, as an API key', () => {
    expect(presentedCredentials(httpEvent('{}', { authorization: 'ias_header' }), {})).toEqual({ apiKey: 'ias_header' });
    expect(presentedCredentials(httpEvent('{}', { Authorization: 'bearer ias_header' }), {})).toEqual({ apiKey: 'ias_header' });
  });

  it('takes a bearer JWT as a token to verify', () => {
    expect(presentedCredentials(httpEvent('{}', { authorization: `Bearer ${JWT}` }), {})).toEqual({ bearerToken: JWT });
  });

  it('prefers the body key over a header key, and ignores an empty or non-string api_key', () => {
    expect(presentedCredentials(httpEvent('{}', { authorization: 'ias_header' }), { api_key: 'ias_body' })).toEqual({ apiKey: 'ias_body' });
    expect(presentedCredentials(httpEvent('{}'), { api_key: '' })).toEqual({});
    expect(presentedCredentials(httpEvent('{}'), { api_key: 42 })).toEqual({});
  });

  it('reads the session cookie from the cookies list or the Cookie header', () => {
    const event = { ...httpEvent('{}'), cookies: ['theme=dark', 'ias_session=sess_abc'] };
    expect(presentedCredentials(event, {})).toEqual({ sessionToken: 'sess_abc' });
    expect(readCookie(httpEvent('{}', { cookie: 'a=1; ias_session=sess_x%2By' }), 'ias_session')).toBe('sess_x+y');
    expect(readCookie(httpEvent('{}', { cookie: 'ias_session_old=1' }), 'ias_session')).toBeUndefined();
  });

  it('takes a session cookie with a broken %-escape as it is, to be refused like any unknown session', () => {
    expect(readCookie(httpEvent('{}', { cookie: 'ias_session=%E0%A4%A' }), 'ias_session')).toBe('%E0%A4%A');
  });
});

describe('the session cookie', () => {
  it('is HttpOnly, Secure and SameSite=Lax for the whole site, with the session lifetime', () => {
    expect(sessionCookie('sess_abc')).toBe('ias_session=sess_abc; HttpOnly; Secure; SameSite=Lax; Path=/; Max-Age=28800');
  });
});

describe('stored secrets', () => {
  it('makes long random tokens and stores only a digest of them', () => {
    const token = newToken('ias');
    expect(token).toMatch(/^ias_[A-Za-z0-9_-]{43}$/);
    expect(newToken('ias')).not.toBe(token);
    expect(digestToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(digestToken(token)).not.toContain(token.slice(4));
  });
});
