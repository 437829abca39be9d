/**
 * The "site" Lambda of the deployed API: `GET /api/openapi.json`, `GET /docs` and
 * `GET /docs/{asset}`. Everything it serves is a file of its own bundle (infra/site/bundle.ts):
 * the OpenAPI document generated at synth time and the Swagger UI assets. It imports no
 * operation module, so it stays small and starts fast.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { docsAsset, docsPage } from './api-docs.js';

export const OPENAPI_PATH = '/api/openapi.json';
export const DOCS_PATH = '/docs';
/** Names of the bundle's files beside index.mjs. */
export const OPENAPI_FILE = 'openapi.json';
export const ASSETS_DIR = 'docs';

/** Below this size compressing costs more than it saves. */
const COMPRESS_FROM_BYTES = 1024;

interface Content {
  body: Buffer;
  contentType: string;
  cacheControl: string;
}

export type SiteHandler = (event: APIGatewayProxyEventV2) => Promise<APIGatewayProxyStructuredResultV2>;

export function createSiteHandler(root: string): SiteHandler {
  // Files never change within a bundle: read (and compress) each once per cold start.
  const contents = new Map<string, Promise<Content | undefined>>();
  const compressed = new Map<string, Buffer>();

  const load = (path: string): Promise<Content | undefined> => {
    if (path === OPENAPI_PATH) {
      return readFile(join(root, OPENAPI_FILE)).then((body) => ({
        body,
        contentType: 'application/json',
        cacheControl: 'public, max-age=300',
      }));
    }
    if (path === DOCS_PATH || path === `${DOCS_PATH}/`) {
      return Promise.resolve({
        body: Buffer.from(docsPage(OPENAPI_PATH), 'utf8'),
        contentType: 'text/html; charset=utf-8',
        cacheControl: 'public, max-age=300',
      });
    }
    if (path.startsWith(`${DOCS_PATH}/`)) {
      // docsAsset answers only its known file names: no path reaches the file system unchecked.
      return docsAsset(path.slice(DOCS_PATH.length + 1), join(root, ASSETS_DIR)).then((asset) =>
        asset ? { ...asset, cacheControl: 'public, max-age=86400' } : undefined,
      );
    }
    return Promise.resolve(undefined);
  };

  return async (event) => {
    const path = event.rawPath ?? '';
    let content = contents.get(path);
    if (!content) {
      content = load(path);
      // Unknown paths are not remembered, so that probing cannot grow the cache.
      content.then((found) => (found ? undefined : contents.delete(path))).catch(() => contents.delete(path));
      contents.set(path, content);
    }
    const found = await content;
    if (!found) {
      return { statusCode: 404, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'not found' };
    }
    const headers: Record<string, string> = { 'content-type': found.contentType, 'cache-control': found.cacheControl };
    if (acceptsGzip(event) && found.body.length >= COMPRESS_FROM_BYTES) {
      let body = compressed.get(path);
      if (!body) {
        body = gzipSync(found.body);
        compressed.set(path, body);
      }
      return { statusCode: 200, headers: { ...headers, 'content-encoding': 'gzip', vary: 'accept-encoding' }, body: body.toString('base64'), isBase64Encoded: true };
    }
    if (found.contentType.startsWith('text/') || found.contentType === 'application/json') {
      return { statusCode: 200, headers, body: found.body.toString('utf8') };
    }
    return { statusCode: 200, headers, body: found.body.toString('base64'), isBase64Encoded: true };
  };
}

function acceptsGzip(event: APIGatewayProxyEventV2): boolean {
  const accepted = event.headers?.['accept-encoding'] ?? event.headers?.['Accept-Encoding'] ?? '';
  return accepted
    .split(',')
    .map((part) => part.trim().split(';'))
    .some(([coding, ...parameters]) => coding.trim().toLowerCase() === 'gzip' && !parameters.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p)));
}

export const handler = createSiteHandler(dirname(fileURLToPath(import.meta.url)));
