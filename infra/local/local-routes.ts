/**
 * Endpoints the local server answers besides the operations of functions/:
 * in AWS, Cognito issues tokens and serves the JWKS, and a site function serves the docs.
 */
import { docsRoutes } from './docs-routes.js';
import { homeRoutes } from './home-route.js';
import { oauthIssuerRoutes } from './oauth-issuer.js';
import { signingPageRoutes } from './signing-routes.js';
import { nightlyRunRoutes, scheduleRoutes } from './schedule-routes.js';
import type { LocalRoute } from './server.js';

export async function localRoutes(options: { eventsDir?: string } = {}): Promise<LocalRoute[]> {
  return [
    // POST /api/auth/oauth2/token and GET /.well-known/jwks.json
    ...oauthIssuerRoutes(),
    // GET /: where the docs are, the version, the stores' health
    ...homeRoutes(),
    // GET /api/openapi.json and GET /docs
    ...docsRoutes(),
    // GET and POST /esign/sign: the built-in signature vendor's signing page
    ...signingPageRoutes(),
    // POST /local/schedules/<job>: a scheduled job run now (events/schedules)
    ...(options.eventsDir ? scheduleRoutes(options.eventsDir) : []),
    // POST /local/nightly-runs: a nightly run's progress and decisions
    ...nightlyRunRoutes(),
  ];
}
