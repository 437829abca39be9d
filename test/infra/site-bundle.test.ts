import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../infra/openapi.js';
import { listOperationRoutes } from '../../infra/routes.js';
import { swaggerUiDir } from '../../infra/site/api-docs.js';
import { buildSiteBundle, type SiteBundle } from '../../infra/site/bundle.js';
import type { SiteHandler } from '../../infra/site/handler.js';

let bundle: SiteBundle;
let handler: SiteHandler;

beforeAll(async () => {
  bundle = buildSiteBundle(await buildOpenApiDocument());
  // The bundle as Lambda loads it: nothing from the project's sources, only its own directory.
  handler = (await import(pathToFileURL(join(bundle.directory, 'index.mjs')).href)).handler as SiteHandler;
}, 120_000);
afterAll(() => bundle?.dispose());

const get = (rawPath: string, headers: Record<string, string> = {}) =>
  handler({ rawPath, headers, routeKey: `GET ${rawPath}`, requestContext: { http: { method: 'GET', path: rawPath } } } as unknown as APIGatewayProxyEventV2);

const bodyOf = (response: APIGatewayProxyStructuredResultV2): Buffer => {
  const raw = Buffer.from(response.body ?? '', response.isBase64Encoded ? 'base64' : 'utf8');
  return response.headers?.['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
};

describe('the site function bundle (GET /api/openapi.json, /docs)', () => {
  it('serves the OpenAPI document generated at synth time, with every operation as a POST', async () => {
    const response = await get('/api/openapi.json');
    expect(response.statusCode).toBe(200);
    expect(response.headers?.['content-type']).toBe('application/json');
    const document = JSON.parse(bodyOf(response).toString('utf8'));
    expect(document.info.version).toBe('2.0.0');
    expect(Object.keys(document.paths).sort()).toEqual(listOperationRoutes().map((route) => route.path).sort());
    for (const path of Object.values(document.paths) as Array<Record<string, unknown>>) expect(Object.keys(path)).toEqual(['post']);
  });

  it('serves the docs page, which loads the document and its assets from this same function', async () => {
    const page = await get('/docs');
    expect(page.statusCode).toBe(200);
    expect(page.headers?.['content-type']).toBe('text/html; charset=utf-8');
    const html = bodyOf(page).toString('utf8');
    expect(html).toContain('"/api/openapi.json"');
    const assets = [...html.matchAll(/(?:href|src)="(\/docs\/[^"]+)"/g)].map((match) => match[1]);
    expect(assets.length).toBeGreaterThanOrEqual(4);
    for (const asset of assets) {
      const response = await get(asset);
      expect(response.statusCode, asset).toBe(200);
      expect(bodyOf(response).equals(readFileSync(join(swaggerUiDir(), asset.slice('/docs/'.length)))), asset).toBe(true);
    }
    expect((await get('/docs/favicon-32x32.png')).headers?.['content-type']).toBe('image/png');
    expect((await get('/docs/swagger-ui.css')).headers?.['content-type']).toBe('text/css; charset=utf-8');
  });

  it('compresses for clients that accept gzip (the Swagger UI bundle is 1.7 MB)', async () => {
    const plain = await get('/docs/swagger-ui-bundle.js');
    const compressed = await get('/docs/swagger-ui-bundle.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(plain.headers?.['content-encoding']).toBeUndefined();
    expect(compressed.headers?.['content-encoding']).toBe('gzip');
    expect(compressed.body!.length).toBeLessThan(plain.body!.length / 2);
    expect(bodyOf(compressed).equals(bodyOf(plain))).toBe(true);
    expect((await get('/docs/swagger-ui-bundle.js', { 'accept-encoding': 'gzip;q=0' })).headers?.['content-encoding']).toBeUndefined();
  });

  it('answers 404 for any other name, including ones that climb out of the assets', async () => {
    for (const path of ['/docs/index.mjs', '/docs/LICENSE', '/docs/../openapi.json', '/docs/..%2Findex.mjs', '/docs/%2e%2e/index.mjs', '/api/openapi.yaml', '/']) {
      expect((await get(path)).statusCode, path).toBe(404);
    }
  });

  it('carries no operation module: only the handler and the docs page template are bundled', () => {
    expect(bundle.inputs.filter((input) => /(^|\/)(functions|shared|events)\//.test(input))).toEqual([]);
    expect(bundle.inputs.every((input) => input.startsWith('infra/site/'))).toBe(true);
    expect(readFileSync(join(bundle.directory, 'index.mjs')).length).toBeLessThan(20_000);
    // The Swagger UI licence travels with the redistributed files.
    expect(existsSync(join(bundle.directory, 'docs', 'LICENSE'))).toBe(true);
  });
});
