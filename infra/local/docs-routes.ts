/** GET /api/openapi.json and the interactive docs at GET /docs, on the local server. */
import { buildOpenApiDocument } from '../openapi.js';
import { docsAsset, docsPage, SWAGGER_ASSETS } from '../site/api-docs.js';
import type { LocalRoute } from './server.js';

export function docsRoutes(): LocalRoute[] {
  let document: Promise<string> | undefined;
  const routes: LocalRoute[] = [
    {
      method: 'GET',
      path: '/api/openapi.json',
      handle: async () => {
        document ??= buildOpenApiDocument().then((built) => JSON.stringify(built));
        return { statusCode: 200, headers: { 'content-type': 'application/json' }, body: await document };
      },
    },
    {
      method: 'GET',
      path: '/docs',
      handle: async () => ({ statusCode: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: docsPage('/api/openapi.json') }),
    },
  ];
  for (const name of SWAGGER_ASSETS.keys()) {
    routes.push({
      method: 'GET',
      path: `/docs/${name}`,
      handle: async () => {
        const asset = await docsAsset(name);
        return asset
          ? { statusCode: 200, headers: { 'content-type': asset.contentType, 'cache-control': 'public, max-age=86400' }, body: asset.body }
          : { statusCode: 404, body: 'not found' };
      },
    });
  }
  return routes;
}
