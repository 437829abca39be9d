/** The built-in signature vendor's signing page (GET shows it, POST signs), on the local server. */
import { SIGNING_PAGE_PATH, serveSigningPage } from '../../shared/signatures/index.js';
import type { LocalRoute } from './server.js';

export function signingPageRoutes(): LocalRoute[] {
  return (['GET', 'POST'] as const).map((method) => ({
    method,
    path: SIGNING_PAGE_PATH,
    handle: async (request) => {
      const response = await serveSigningPage({ method, query: request.query, body: request.body.toString('utf8') });
      // The document itself comes as base64, as API Gateway wants it; the local server sends the bytes.
      return { statusCode: response.statusCode, headers: response.headers, body: response.isBase64Encoded ? Buffer.from(response.body, 'base64') : response.body };
    },
  }));
}
