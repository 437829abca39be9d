/**
 * Browser sessions (`/api/v2/auth/session`): an API key buys a session cookie; the
 * cookie then stands in for the key until the session expires or the key is revoked.
 */
import { SESSION_COOKIE, type PresentedCredentials } from '../platform/credentials.js';
import { principalOfKey, principalOfSession } from './authenticate.js';
import { createSession, findActiveApiKey, findLiveSession, SESSION_LIFETIME_SECONDS } from './store.js';
import { clock } from '../platform/clock.js';

export type SessionOutcome =
  | { kind: 'opened'; contactId: string; token: string; expiresAt: Date }
  | { kind: 'continued'; contactId: string; expiresAt: Date }
  | { kind: 'denied' };

/**
 * An API key (body or Authorization header) opens a new session; failing that, a live
 * session cookie is confirmed as it is. A presented but invalid API key is refused even
 * beside a live cookie: the caller asked to be judged by that key. A bearer JWT is not
 * a credential for this operation (the spec lists API keys and the cookie only).
 */
export async function openOrConfirmSession(credentials: PresentedCredentials, now = clock.now()): Promise<SessionOutcome> {
  if (credentials.apiKey) {
    const key = await findActiveApiKey(credentials.apiKey);
    const principal = key ? await principalOfKey(key) : undefined;
    if (!key || !principal) return { kind: 'denied' };
    // The session takes the key's copy of the contact's access, checked against the key as it commits.
    const session = await createSession({ contactId: principal.contactId, apiKeyDigest: key.digest, ...(key.access ? { access: key.access } : {}) }, now);
    return { kind: 'opened', contactId: principal.contactId, ...session };
  }
  if (credentials.sessionToken) {
    const session = await findLiveSession(credentials.sessionToken, now);
    if (!session) return { kind: 'denied' };
    // A contact removed, terminated or of an inactive agency since the session began no longer has one.
    if (!(await principalOfSession(session))) return { kind: 'denied' };
    return { kind: 'continued', contactId: session.contactId, expiresAt: session.expiresAt };
  }
  return { kind: 'denied' };
}

/**
 * The session cookie. Secure even on http://localhost, which browsers treat as a secure
 * context; Lax so that following a link into the application keeps the session while
 * cross-site POSTs do not carry it.
 */
export function sessionCookie(token: string, maxAgeSeconds = SESSION_LIFETIME_SECONDS): string {
  return `${SESSION_COOKIE}=${encodeURIComponent(token)}; HttpOnly; Secure; SameSite=Lax; Path=/; Max-Age=${maxAgeSeconds}`;
}

/** The cookie that makes a browser forget a dead session. */
export function clearedSessionCookie(): string {
  return sessionCookie('', 0);
}
