/**
 * The local stand-in for Cognito's token endpoint (client-credentials grant, RFC 6749
 * section 4.4) and its JWKS. Tokens carry the claims Cognito puts in a client-credentials
 * access token, so shared/auth/authenticate.ts verifies both with aws-jwt-verify alike.
 *
 * The RS256 key pair is generated per process and never written down: a laptop service
 * restart invalidates outstanding tokens, which lasts at most the token lifetime (an hour)
 * and costs a client one more token request, while no private key lies around in .data/.
 *
 * After WRONG_SECRETS_PER_MINUTE wrong secrets for one client id within a minute, the
 * endpoint answers 429 with Retry-After for that client id, without checking the secret,
 * until the oldest of those failures is a minute old: guessing a secret then takes years.
 * In AWS the token endpoint is Cognito's, with Cognito's own throttling.
 */
import { randomUUID } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT, type GenerateKeyPairResult, type JWK } from 'jose';
import { verifyOAuthClientSecret } from '../../shared/auth/store.js';
import { config } from '../../shared/platform/config.js';
import type { LocalRequest, LocalResponse, LocalRoute } from './server.js';

export const TOKEN_PATH = '/api/auth/oauth2/token';
export const JWKS_PATH = '/.well-known/jwks.json';
export const ACCESS_TOKEN_LIFETIME_SECONDS = 3600;
/** The resource server scope of infra/stacks/auth-stack.ts (`insurance-admin` / `api`). */
export const API_SCOPE = 'insurance-admin/api';
const SUPPORTED_SCOPES = [API_SCOPE];
export const WRONG_SECRETS_PER_MINUTE = 10;

interface SigningKey {
  privateKey: GenerateKeyPairResult['privateKey'];
  publicJwk: JWK;
  kid: string;
}

let signingKey: Promise<SigningKey> | undefined;

function localSigningKey(): Promise<SigningKey> {
  signingKey ??= (async () => {
    const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
    const jwk = await exportJWK(publicKey);
    const kid = await calculateJwkThumbprint(jwk);
    return { privateKey, kid, publicJwk: { ...jwk, kid, alg: 'RS256', use: 'sig' } };
  })();
  return signingKey;
}

/** The JSON Web Key Set that verifiers fetch from JWKS_URI. */
export async function localJwks(): Promise<{ keys: JWK[] }> {
  return { keys: [(await localSigningKey()).publicJwk] };
}

/**
 * Signs an access token as the local issuer. The token endpoint uses it; tests use it
 * directly for tokens the endpoint would never issue (expired, or for an unknown client).
 */
export async function issueAccessToken(
  claims: { clientId: string; scope?: string; issuer?: string },
  options: { expiresInSeconds?: number; now?: Date } = {},
): Promise<string> {
  const { privateKey, kid } = await localSigningKey();
  const issuer = claims.issuer ?? config.jwtIssuer();
  if (!issuer) throw new Error('JWT_ISSUER is not set: the local issuer does not know its own name');
  const issuedAt = Math.floor((options.now ?? new Date()).getTime() / 1000);
  return new SignJWT({
    client_id: claims.clientId,
    token_use: 'access',
    scope: claims.scope ?? SUPPORTED_SCOPES.join(' '),
    auth_time: issuedAt,
    version: 2,
  })
    .setProtectedHeader({ alg: 'RS256', kid })
    .setIssuer(issuer)
    .setSubject(claims.clientId)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + (options.expiresInSeconds ?? ACCESS_TOKEN_LIFETIME_SECONDS))
    .setJti(randomUUID())
    .sign(privateKey);
}

export type ClientCredentials = { clientId: string; clientSecret: string } | { error: 'invalid_request' | 'invalid_client'; description: string };

/**
 * The client's credentials from HTTP Basic (RFC 6749 section 2.3.1: each part form-encoded
 * before base64) or from the form body; using both at once is refused, as the RFC says.
 */
export function clientCredentialsOf(authorization: string | undefined, form: URLSearchParams): ClientCredentials {
  const inBody = form.has('client_id') || form.has('client_secret');
  const basic = authorization ? /^basic\s+(\S+)$/i.exec(authorization.trim()) : null;
  if (basic && inBody) return { error: 'invalid_request', description: 'Authenticate the client by one method only: HTTP Basic or the form body' };
  if (basic) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return { error: 'invalid_client', description: 'The Basic credentials are malformed' };
    try {
      return { clientId: formDecode(decoded.slice(0, colon)), clientSecret: formDecode(decoded.slice(colon + 1)) };
    } catch {
      return { error: 'invalid_client', description: 'The Basic credentials are malformed' };
    }
  }
  const clientId = form.get('client_id');
  const clientSecret = form.get('client_secret');
  if (clientId && clientSecret) return { clientId, clientSecret };
  return { error: 'invalid_client', description: 'Client authentication is required (HTTP Basic, or client_id and client_secret in the form)' };
}

function formDecode(value: string): string {
  return decodeURIComponent(value.replace(/\+/g, ' '));
}

/**
 * `<origin>/api`, such as `https://api.example.com/api`: the API's scope as clients that know
 * the API by its address spell it (in AWS, the resource server named by the API's custom
 * domain, see infra/stacks/auth-stack.ts). Any http or https origin is accepted locally,
 * where the service has no fixed address; clients send the host without its port.
 */
export function isOriginApiScope(scope: string): boolean {
  let url: URL;
  try {
    url = new URL(scope);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
  return url.hostname !== '' && scope.toLowerCase() === `${url.origin}/api`.toLowerCase();
}

/**
 * The scopes to grant, as asked: all supported ones when none are asked for; undefined when
 * one is unknown. `<origin>/api` is a synonym of API_SCOPE.
 */
export function grantedScope(requested: string | null): string | undefined {
  if (requested === null || requested.trim() === '') return SUPPORTED_SCOPES.join(' ');
  const scopes = requested.trim().split(/\s+/);
  return scopes.every((scope) => SUPPORTED_SCOPES.includes(scope) || isOriginApiScope(scope)) ? [...new Set(scopes)].join(' ') : undefined;
}

/**
 * Counts wrong client secrets per client id over a sliding window. Memory stays bounded:
 * beyond `maxClients` ids, the ids with the oldest last failure are forgotten first.
 */
export class WrongSecretThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly limit = WRONG_SECRETS_PER_MINUTE,
    private readonly windowMs = 60_000,
    private readonly maxClients = 10_000,
  ) {}

  /** Whole seconds the client must wait before its secret is checked again; 0 when it need not. */
  retryAfterSeconds(clientId: string, now: number): number {
    const recent = this.recent(clientId, now);
    if (recent.length < this.limit) return 0;
    return Math.max(1, Math.ceil((recent[recent.length - this.limit] + this.windowMs - now) / 1000));
  }

  recordFailure(clientId: string, now: number): void {
    const recent = this.recent(clientId, now);
    recent.push(now);
    // Re-inserted last: the map's order is then the order of last failures.
    this.failures.delete(clientId);
    this.failures.set(clientId, recent);
    for (const oldest of this.failures.keys()) {
      if (this.failures.size <= this.maxClients) break;
      this.failures.delete(oldest);
    }
  }

  recordSuccess(clientId: string): void {
    this.failures.delete(clientId);
  }

  private recent(clientId: string, now: number): number[] {
    return (this.failures.get(clientId) ?? []).filter((at) => at > now - this.windowMs);
  }
}

const NO_STORE = { 'content-type': 'application/json', 'cache-control': 'no-store', pragma: 'no-cache' };

function oauthError(statusCode: number, error: string, description: string, headers: Record<string, string> = {}): LocalResponse {
  return { statusCode, headers: { ...NO_STORE, ...headers }, body: JSON.stringify({ error, error_description: description }) };
}

async function tokenEndpoint(request: LocalRequest, throttle: WrongSecretThrottle, now: () => number): Promise<LocalResponse> {
  const form = new URLSearchParams(request.body.toString('utf8'));
  const credentials = clientCredentialsOf(request.headers.authorization, form);
  const challenge = { 'www-authenticate': 'Basic realm="insurance-admin", charset="UTF-8"' };
  if ('error' in credentials) {
    return credentials.error === 'invalid_client'
      ? oauthError(401, 'invalid_client', credentials.description, challenge)
      : oauthError(400, credentials.error, credentials.description);
  }
  const retryAfter = throttle.retryAfterSeconds(credentials.clientId, now());
  if (retryAfter > 0) {
    const description = `Too many wrong client secrets for this client; retry in ${retryAfter} seconds`;
    return oauthError(429, 'temporarily_unavailable', description, { 'retry-after': String(retryAfter) });
  }
  const client = await verifyOAuthClientSecret(credentials.clientId, credentials.clientSecret);
  if (!client) {
    throttle.recordFailure(credentials.clientId, now());
    return oauthError(401, 'invalid_client', 'Unknown client or wrong client secret', challenge);
  }
  throttle.recordSuccess(credentials.clientId);

  const grantType = form.get('grant_type');
  if (!grantType) return oauthError(400, 'invalid_request', 'grant_type is required');
  if (grantType !== 'client_credentials') {
    return oauthError(400, 'unsupported_grant_type', `grant_type ${grantType} is not supported; use client_credentials`);
  }
  const scope = grantedScope(form.get('scope'));
  if (!scope) return oauthError(400, 'invalid_scope', `scope must be made of: ${SUPPORTED_SCOPES.join(' ')} (or its synonym <origin>/api, as https://<host>/api)`);

  const accessToken = await issueAccessToken({ clientId: client.clientId, scope, issuer: config.jwtIssuer() ?? `http://${request.headers.host}` });
  return {
    statusCode: 200,
    headers: NO_STORE,
    body: JSON.stringify({ access_token: accessToken, token_type: 'Bearer', expires_in: ACCESS_TOKEN_LIFETIME_SECONDS }),
  };
}

/** `now` is the clock of the wrong-secret throttle (tests move it). */
export function oauthIssuerRoutes(options: { now?: () => number } = {}): LocalRoute[] {
  const throttle = new WrongSecretThrottle();
  const now = options.now ?? Date.now;
  return [
    { method: 'POST', path: TOKEN_PATH, handle: (request) => tokenEndpoint(request, throttle, now) },
    {
      method: 'GET',
      path: JWKS_PATH,
      handle: async () => ({
        statusCode: 200,
        headers: { 'content-type': 'application/json', 'cache-control': 'public, max-age=300' },
        body: JSON.stringify(await localJwks()),
      }),
    },
  ];
}
