/**
 * The interactive API docs page (Swagger UI from the swagger-ui-dist package) and
 * the OpenAPI document it reads. The page's assets are served from the package.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const SWAGGER_ASSETS = new Map([
  ['swagger-ui.css', 'text/css; charset=utf-8'],
  ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
  ['swagger-ui-standalone-preset.js', 'text/javascript; charset=utf-8'],
  ['favicon-32x32.png', 'image/png'],
]);

/** What the page asks of Swagger UI beyond the description: a filter box, deep links to each operation. */
export const DOCS_PAGE_OPTIONS = 'filter: true, deepLinking: true';

export function docsPage(openApiUrl: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Insurance administration service: API</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
  <link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/swagger-ui-standalone-preset.js"></script>
  <script>
    // Over a hundred operations: a filter box (by tag, e.g. "v2 policies" or "billing"), and deep links, so that
    // /docs#/v2%20policies/v2-policies-cancel_policy opens that operation and the address follows what is opened.
    window.ui = SwaggerUIBundle({ url: ${JSON.stringify(openApiUrl)}, dom_id: '#swagger-ui', presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout', ${DOCS_PAGE_OPTIONS} });
  </script>
</body>
</html>`;
}

/** An asset of the docs page, or undefined for a name that is not one (no path traversal). */
export async function docsAsset(name: string, assetsDir = swaggerUiDir()): Promise<{ body: Buffer; contentType: string } | undefined> {
  const contentType = SWAGGER_ASSETS.get(name);
  if (!contentType) return undefined;
  return { body: await readFile(join(assetsDir, name)), contentType };
}

export function swaggerUiDir(): string {
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

export { SWAGGER_ASSETS };
