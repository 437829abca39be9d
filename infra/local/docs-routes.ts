/** GET /api/openapi.json and the interactive docs at GET /docs, on the local server. */
import { todayIso } from '../../shared/platform/dates.js';
import { buildOpenApiDocument } from '../openapi.js';
import { docsAsset, docsPage, SWAGGER_ASSETS } from '../site/api-docs.js';
import type { LocalRoute } from './server.js';

export function docsRoutes(): LocalRoute[] {
  // Built once a day: the worked example's quote in it is effective the day it is read.
  let document: { day: string; json: Promise<string> } | undefined;
  const routes: LocalRoute[] = [
    {
      method: 'GET',
      path: '/api/openapi.json',
      handle: async () => {
        const day = todayIso();
        if (document?.day !== day) document = { day, json: buildOpenApiDocument(undefined, { today: day }).then((built) => JSON.stringify(built)) };
        return { statusCode: 200, headers: { 'content-type': 'application/json' }, body: await document.json };
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
