/**
 * `npm run bench`: per function, the minified bundle size and its cold import time in
 * a fresh Node process; then, through one local service in this process, warm latency
 * of a bare envelope operation (the baseline) and the scenarios of test/bench/scenarios,
 * with the DynamoDB capacity each call consumed. Writes test/bench/results.json.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { listOperationRoutes } from '../../infra/routes.js';
import { newToken } from '../../shared/auth/secrets.js';
import type { BenchCall, BenchContext, BenchRow, BenchScenario } from './types.js';

process.env.MEASURE_DYNAMODB_CAPACITY = 'true';
process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

const here = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const skipBundles = process.argv.includes('--no-bundles');

const { capacityMeter } = await import('../../shared/platform/clients.js');
const { startLocalService } = await import('../../infra/local/service.js');

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

/** Bundles every operation as the CDK app would (minified, SDK included) and imports each cold. */
async function bundleRows(): Promise<BenchRow[]> {
  const routes = listOperationRoutes();
  const outdir = mkdtempSync(join(tmpdir(), 'ias-bench-'));
  try {
    await build({
      entryPoints: Object.fromEntries(routes.map((route) => [route.id, route.entry])),
      outdir,
      bundle: true,
      minify: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      outExtension: { '.js': '.mjs' },
      banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
      logLevel: 'error',
    });
    const rows: BenchRow[] = [];
    for (const route of routes) {
      const file = join(outdir, `${route.id}.mjs`);
      const imports: number[] = [];
      for (let run = 0; run < 3; run += 1) {
        const output = execFileSync(
          process.execPath,
          ['--input-type=module', '-e', `const t = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); console.log(performance.now() - t);`],
          { env: { ...process.env, TABLE_NAME: 'bench' }, encoding: 'utf8' },
        );
        imports.push(Number(output.trim()));
      }
      imports.sort((a, b) => a - b);
      rows.push({ name: route.path, bundleKiB: round(statSync(file).size / 1024, 1), coldImportMs: round(imports[1], 1) });
    }
    return rows;
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

async function main() {
  const results: Record<string, BenchRow[]> = {};
  if (!skipBundles) {
    console.log('bundling every operation and importing each cold ...');
    results.bundles = await bundleRows();
    console.table(results.bundles);
  }

  const administratorApiKey = newToken('ias');
  const service = await startLocalService({ port: 0, administratorApiKey, consumers: false });
  const post = async (path: string, body: Record<string, unknown>, apiKey?: string) => {
    const response = await fetch(`${service.url}${path}`, { method: 'POST', body: JSON.stringify({ api_key: apiKey ?? administratorApiKey, ...body }) });
    return { status: response.status, body: await response.json().catch(() => null) };
  };
  const context: BenchContext = {
    url: service.url,
    administratorApiKey,
    call: async (path, body = {}, options = {}): Promise<BenchCall> => {
      capacityMeter.reset();
      const started = performance.now();
      const answer = await post(path, body, options.apiKey);
      return { ...answer, ms: performance.now() - started, readUnits: capacityMeter.readUnits, writeUnits: capacityMeter.writeUnits };
    },
    latency: async (path, body, options = {}) => {
      const requests = options.requests ?? 300;
      const concurrency = options.concurrency ?? 4;
      for (let i = 0; i < 20; i += 1) await post(path, body);
      const durations: number[] = [];
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < requests) {
            next += 1;
            const t = performance.now();
            await post(path, body);
            durations.push(performance.now() - t);
          }
        }),
      );
      const elapsed = (performance.now() - started) / 1000;
      durations.sort((a, b) => a - b);
      return { p50: round(percentile(durations, 50)), p99: round(percentile(durations, 99)), rps: round(requests / elapsed, 1) };
    },
  };

  try {
    const baseline = await context.latency('/api/v2/utils/get_release_info', {});
    const baselineCall = await context.call('/api/v2/utils/get_release_info', {});
    results.baseline = [{ name: 'get_release_info (bare envelope operation)', ...baseline, readUnits: baselineCall.readUnits, writeUnits: baselineCall.writeUnits }];
    console.table(results.baseline);

    const scenarioFiles = readdirSync(join(here, 'scenarios')).filter((file) => file.endsWith('.ts')).sort();
    for (const file of scenarioFiles) {
      const { scenario } = (await import(pathToFileURL(join(here, 'scenarios', file)).href)) as { scenario: BenchScenario };
      if (only.length && !only.includes(scenario.name)) continue;
      console.log(`scenario ${scenario.name} ...`);
      const rows = await scenario.run(context);
      for (const row of rows) {
        if (typeof row.p50 === 'number') row.p50VsBaseline = round(row.p50 / baseline.p50);
      }
      results[scenario.name] = rows;
      console.table(rows);
    }
  } finally {
    await service.stop();
  }

  const output = { measuredAt: new Date().toISOString(), node: process.version, machine: `${process.arch}`, results };
  writeFileSync(join(here, 'results.json'), `${JSON.stringify(output, null, 2)}\n`);
  console.log(`wrote ${join(here, 'results.json')}`);
}

await main();
process.exit(0);
