/**
 * Verifies an OAuth client's access token with aws-jwt-verify: against the Cognito user pool in
 * AWS, against the configured issuer's JWKS elsewhere (its JWKS may be served over plain http).
 * Loaded by authenticate.ts on a function's first bearer call, as a module of its own: nothing
 * here may throw an error that error-mapping.ts recognises by its class (a module of its own has
 * its own copy of every class); the issuer being unreachable stays the service's fault, thrown
 * as aws-jwt-verify throws it.
 */
import { CognitoJwtVerifier, JwtVerifier } from 'aws-jwt-verify';
import { FetchError, JwksValidationError } from 'aws-jwt-verify/error';
import { SimpleJwksCache } from 'aws-jwt-verify/jwk';
import { config } from '../platform/config.js';

type AccessTokenVerifier = { verify(token: string): Promise<Record<string, unknown>> };
let verifier: AccessTokenVerifier | undefined;
let verifierFor: string | undefined;

/** The token's OAuth client, or undefined when the token is not a valid access token. */
export async function verifyBearerToken(token: string): Promise<{ clientId: string } | undefined> {
  const userPoolId = config.cognitoUserPoolId();
  const issuer = config.jwtIssuer();
  const identity = `${userPoolId}|${issuer}|${config.jwksUri()}`;
  if (!verifier || verifierFor !== identity) {
    verifierFor = identity;
    if (userPoolId) {
      verifier = CognitoJwtVerifier.create({ userPoolId, tokenUse: 'access', clientId: null }) as unknown as AccessTokenVerifier;
    } else if (issuer) {
      const jwksCache = new SimpleJwksCache({
        fetcher: {
          // aws-jwt-verify's own fetcher insists on https; the local issuer serves plain http.
          fetch: async (uri: string) => {
            try {
              const response = await fetch(uri, { signal: AbortSignal.timeout(5000) });
              if (!response.ok) throw new Error(`status ${response.status}`);
              return await response.arrayBuffer();
            } catch (error) {
              throw new FetchError(uri, (error as Error).message);
            }
          },
        },
      });
      verifier = JwtVerifier.create(
        {
          issuer,
          audience: null,
          jwksUri: config.jwksUri() ?? `${issuer}/.well-known/jwks.json`,
          customJwtCheck: ({ payload }) => {
            if (payload.token_use !== 'access') throw new Error('Not an access token');
          },
        },
        { jwksCache },
      ) as unknown as AccessTokenVerifier;
    } else {
      return undefined;
    }
  }
  try {
    const payload = await verifier.verify(token);
    const clientId = payload.client_id;
    return typeof clientId === 'string' ? { clientId } : undefined;
  } catch (error) {
    // The issuer's key set being unreachable or broken is the service's fault, not the caller's.
    if (error instanceof FetchError || error instanceof JwksValidationError) throw error;
    return undefined;
  }
}

