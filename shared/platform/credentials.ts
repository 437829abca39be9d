/**
 * The credentials a request presents (README.md, "A first call"), picked out without judging
 * them: `api_key` as a top-level body field, `Authorization: Bearer <JWT>`,
 * `Authorization: <api key>`, or the session cookie minted by /api/v2/auth/session.
 * Whether any of them is valid is for the authenticator to say.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

export const SESSION_COOKIE = 'ias_session';

export interface PresentedCredentials {
  apiKey?: string;
  bearerToken?: string;
  sessionToken?: string;
}

export function presentedCredentials(event: APIGatewayProxyEventV2, body: unknown): PresentedCredentials {
  const credentials: PresentedCredentials = {};
  const bodyKey = body && typeof body === 'object' ? (body as Record<string, unknown>).api_key : undefined;
  if (typeof bodyKey === 'string' && bodyKey.length > 0) credentials.apiKey = bodyKey;
  const authorization = (event.headers?.authorization ?? event.headers?.Authorization)?.trim();
  if (authorization) {
    const bearer = /^bearer\s+(.+)$/i.exec(authorization);
    if (bearer) {
      // A bearer value that is not a JWT is an API key sent the OAuth way.
      if (bearer[1].split('.').length === 3) credentials.bearerToken = bearer[1];
      else credentials.apiKey ??= bearer[1];
    } else {
      credentials.apiKey ??= authorization;
    }
  }
  const session = readCookie(event, SESSION_COOKIE);
  if (session) credentials.sessionToken = session;
  return credentials;
}

export function readCookie(event: APIGatewayProxyEventV2, name: string): string | undefined {
  const pairs = [...(event.cookies ?? []), ...(event.headers?.cookie ?? '').split(';')];
  for (const pair of pairs) {
    const index = pair.indexOf('=');
    if (index > 0 && pair.slice(0, index).trim() === name) return decodeCookieValue(pair.slice(index + 1).trim());
  }
  return undefined;
}

/** A cookie value is the client's to mangle: a broken %-escape is a wrong credential, not a fault. */
function decodeCookieValue(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
