/**
 * `npm run bench`: first the cold start of every function (bundle size and cold import, as
 * ratios to a bare DynamoDB handler built in the same run: test/bench/cold-start.ts); then,
 * through one local service in this process, warm latency of a bare envelope operation (the
 * baseline) and the scenarios of test/bench/scenarios, with the DynamoDB capacity each call
 * consumed as AWS bills it (test/bench/billed-capacity.ts). Writes test/bench/results.json.
 *
 *   npm run bench                                  everything, 11 cold imports per function
 *   npm run bench -- --quick                       cold starts only, 5 imports per function
 *   npm run bench -- --functions create_policy,v2/auth/   only these functions' cold starts
 *   npm run bench -- --runs 21                     more imports per function
 *   npm run bench -- --no-bundles contacts         no cold starts; only the named scenarios (the rest of
 *                                                  results.json is kept, the re-run listed in its `reruns`)
 *   npm run bench -- --source-maps                 imports with --enable-source-maps (as the functions ran before issue 35)
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { newToken } from '../../shared/auth/secrets.js';
import { coldStartTargets, formatColdStarts, LAMBDA_NODE_FLAGS, measureColdStarts, selectTargets, SOURCE_MAP_FLAGS } from './cold-start.js';
import type { BenchCall, BenchContext, BenchRow, BenchScenario } from './types.js';
import { DEPLOYED_MEMORY_MB, PRICES, pricedRows } from './cost.js';

process.env.POWERTOOLS_LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'SILENT';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

const here = fileURLToPath(new URL('.', import.meta.url));
const args = process.argv.slice(2);
const optionValue = (name: string) => {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
};
const quick = args.includes('--quick');
const functionFilter = (optionValue('--functions') ?? '').split(',').filter(Boolean);
const runs = Number(optionValue('--runs') ?? (quick ? 5 : 11));
const skipColdStarts = args.includes('--no-bundles');
// Filtered or quick runs measure cold starts only; scenarios are chosen by name.
const skipScenarios = quick || functionFilter.length > 0;
const only = args.filter((arg, index) => !arg.startsWith('-') && !['--functions', '--runs'].includes(args[index - 1]));

// Every DynamoDB call the service makes is priced as AWS bills it (test/bench/billed-capacity.ts), not as DynamoDB Local reports it.
const { onClientCreated } = await import('../../shared/platform/clients.js');
const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
const { billedMeter, meterBilledCapacity, meterRequests } = await import('./billed-capacity.js');
onClientCreated((client) => {
  if (client instanceof DynamoDBClient) meterBilledCapacity(client);
});
// S3 and SQS requests are counted too: a policy-year prices them (test/bench/cost.ts).
meterRequests({ S3Client: (await import('@aws-sdk/client-s3')).S3Client, SQSClient: (await import('@aws-sdk/client-sqs')).SQSClient });
const { startLocalService } = await import('../../infra/local/service.js');

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

async function coldStarts() {
  const targets = selectTargets(coldStartTargets(), functionFilter);
  console.log(`cold starts: ${targets.length} functions and the bare handler, ${runs} interleaved imports each ...`);
  const report = await measureColdStarts({
    targets,
    runs,
    nodeFlags: args.includes('--source-maps') ? SOURCE_MAP_FLAGS : LAMBDA_NODE_FLAGS,
    onRound: (round) => process.stdout.write(round === runs ? `${round}\n` : `${round} `),
  });
  console.log(formatColdStarts(report));
  return report;
}

async function main() {
  const results: Record<string, BenchRow[]> = {};
  const coldStart = skipColdStarts ? undefined : await coldStarts();
  if (!skipScenarios) await scenarios(results);
  const options = { runs, quick, functions: functionFilter, scenarios: skipScenarios ? [] : only };
  const measuredAt = new Date().toISOString();
  const path = join(here, 'results.json');
  // A run of some scenarios only (or without cold starts) keeps what it did not measure from the last
  // results.json, and says which scenarios it re-ran, when, and beside which baseline.
  const partial = only.length > 0 || skipColdStarts || skipScenarios;
  const previous = partial && existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Record<string, any>) : undefined;
  const { baseline: rerunBaseline, ...rerun } = results;
  const merged: Record<string, BenchRow[]> = previous ? { ...previous.results, ...rerun } : results;
  // Every call measured, priced at the dated list prices (test/bench/cost.ts).
  const costs = { prices: PRICES, memoryMb: DEPLOYED_MEMORY_MB, perMillionCalls: pricedRows(merged) };
  if (pricedRows(results).length) console.table(pricedRows(results));
  const output = previous
    ? {
        ...previous,
        results: merged,
        costs,
        ...(coldStart ? { coldStart } : {}),
        reruns: [...(previous.reruns ?? []), { measuredAt, node: process.version, options, results: Object.keys(rerun), ...(rerunBaseline ? { baseline: rerunBaseline } : {}) }],
      }
    : { measuredAt, node: process.version, machine: `${process.arch}`, options, coldStart, results, costs };
  mkdirSync(here, { recursive: true });
  writeFileSync(path, `${JSON.stringify(output, null, 2)}\n`);
  console.log(`wrote ${path}`);
}

/** Posting and metering through one local service. */
function benchContext(url: string, administratorApiKey: string): BenchContext {
  const post = async (path: string, body: Record<string, unknown>, apiKey?: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify({ api_key: apiKey ?? administratorApiKey, ...body }) });
    return { status: response.status, body: await response.json().catch(() => null) };
  };
  return {
    url,
    administratorApiKey,
    call: async (path, body = {}, options = {}): Promise<BenchCall> => {
      billedMeter.reset();
      const started = performance.now();
      const answer = await post(path, body, options.apiKey, options.headers).finally(() => (billedMeter.enabled = false));
      // The meter's own reads of item sizes are not the call's time (summed, they can exceed it where a call reads in parallel: then 0).
      return {
        ...answer,
        ms: Math.max(0, performance.now() - started - billedMeter.overheadMs),
        readUnits: billedMeter.readUnits,
        writeUnits: billedMeter.writeUnits,
        s3Gets: billedMeter.s3Gets,
        s3Puts: billedMeter.s3Puts,
        sqsRequests: billedMeter.sqsRequests,
      };
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
}

async function scenarios(results: Record<string, BenchRow[]>) {
  const administratorApiKey = newToken('ias');
  const service = await startLocalService({ port: 0, administratorApiKey, consumers: false });
  const context = benchContext(service.url, administratorApiKey);
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
}

await main();
process.exit(0);
