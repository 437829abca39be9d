/**
 * Builds the asset directory of the site function (infra/site/handler.ts) at synth time:
 *
 *   index.mjs (+ .map)   the handler, bundled with the functions' recipe (infra/bundles.ts BUNDLING)
 *   openapi.json         the OpenAPI document, generated from the operations' zod schemas
 *   docs/                the Swagger UI files the docs page loads, from swagger-ui-dist,
 *                        with the package's licence and notice
 *
 * The document is written as data beside the code, so the handler never imports an
 * operation module at run time.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { ESBUILD_OPTIONS } from '../bundles.js';
import { SWAGGER_ASSETS, swaggerUiDir } from './api-docs.js';
import { ASSETS_DIR, OPENAPI_FILE } from './handler.js';

export const SITE_ENTRY = fileURLToPath(new URL('./handler.ts', import.meta.url));

/** Travel with the redistributed Swagger UI files (Apache License 2.0). */
const SWAGGER_LICENCE_FILES = ['LICENSE', 'NOTICE'];

export interface SiteBundle {
  directory: string;
  /** Source files esbuild put into index.mjs, relative to the project root. */
  inputs: string[];
  dispose(): void;
}

export function buildSiteBundle(openApiDocument: Record<string, unknown>, directory = mkdtempSync(join(tmpdir(), 'insurance-admin-site-'))): SiteBundle {
  const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
  const result = buildSync({
    entryPoints: [SITE_ENTRY],
    absWorkingDir: projectRoot,
    outfile: join(directory, 'index.mjs'),
    ...ESBUILD_OPTIONS,
  });
  writeFileSync(join(directory, OPENAPI_FILE), JSON.stringify(openApiDocument));

  const assets = join(directory, ASSETS_DIR);
  mkdirSync(assets, { recursive: true });
  const source = swaggerUiDir();
  for (const name of [...SWAGGER_ASSETS.keys(), ...SWAGGER_LICENCE_FILES]) {
    if (!existsSync(join(source, name))) throw new Error(`swagger-ui-dist has no ${name}: the docs page cannot be served`);
    copyFileSync(join(source, name), join(assets, name));
  }

  const dispose = () => rmSync(directory, { recursive: true, force: true });
  return { directory, inputs: Object.keys(result.metafile!.inputs).sort(), dispose };
}
