/**
 * Where the ZIP table should live: shipped with the functions that look ZIPs up (the choice
 * made: a data file beside the bundle, read on the first lookup), or loaded into DynamoDB at
 * bootstrap (the alternative). Measures
 *
 * - the bundle of each ZIP operation as the CDK app builds it (infra/bundles.ts), plain and
 *   gzipped (Lambda ships a zip), and the table file beside it;
 * - its cold import in a fresh `node` process (median of runs): the table is not read yet;
 * - the first and the warm lookup in a fresh process: the first one reads the table;
 * - both operations through the local service: warm latency and DynamoDB capacity per call;
 * - the alternative, prototyped against the run's table: capacity to write ZIP items
 *   (extrapolated to the one-time bootstrap of the whole table), capacity and latency of
 *   reading one per lookup. The prototype's items are deleted afterwards.
 *
 * The numbers and the decision are written down in docs/data-model.md (Geography).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { FunctionBundles } from '../../../infra/bundles.js';
import { lookupZip } from '../../../shared/geography/zip-lookup.js';
import { parseTableText, RECORD_WIDTH, TABLE_FILE_NAME, ZIP_WIDTH } from '../../../shared/geography/zip-table-format.js';
import { config } from '../../../shared/platform/config.js';
import type { BenchContext, BenchRow, BenchScenario } from '../types.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const TABLE_FILE = join(ROOT, 'shared/geography', TABLE_FILE_NAME);
const ADDRESS_INFO = '/api/v1/contacts/retrieveAddressInfoFromZip';
const PROPERTY_INFO = '/api/v1/policies/retrievePropertyInfoFromZip';
const ENTRIES = [
  { name: 'retrieveAddressInfoFromZip', file: join(ROOT, 'functions/v1/contacts/retrieveAddressInfoFromZip.ts') },
  { name: 'retrievePropertyInfoFromZip', file: join(ROOT, 'functions/v1/policies/retrievePropertyInfoFromZip.ts') },
];
const COLD_RUNS = 9;
/** ZIP items the DynamoDB prototype writes and reads; the whole table is extrapolated from them. */
const PROTOTYPE_SAMPLE = 500;
/** On-demand list prices (us-east-1, standard table class, USD per million request units). */
const PRICE_PER_MILLION_WRITE_UNITS = 0.625;
const PRICE_PER_MILLION_READ_UNITS = 0.125;

export const scenario: BenchScenario = {
  name: 'geography',
  async run(context) {
    const scratch = mkdtempSync(join(tmpdir(), 'ias-bench-geography-'));
    const lookupEntry = join(scratch, 'lookup-entry.ts');
    writeFileSync(lookupEntry, `export { lookupZip } from ${JSON.stringify(join(ROOT, 'shared/geography/zip-lookup.ts'))};\n`);
    const bundles = new FunctionBundles([...ENTRIES.map((entry) => entry.file), lookupEntry]);
    try {
      return [
        ...(await bundleRows(bundles)),
        await firstLookupRow(bundles.directoryFor(lookupEntry)),
        ...(await operationRows(context)),
        ...(await dynamoAlternativeRows()),
      ];
    } finally {
      bundles.dispose();
      rmSync(scratch, { recursive: true, force: true });
    }
  },
};

/**
 * What a fresh `node` process spends importing `file` (module evaluation included): wall
 * time, and CPU time, which a busy machine disturbs less than wall time.
 */
async function coldImport(file: string): Promise<{ wallMs: number; cpuMs: number }> {
  const script = [
    'const c = process.cpuUsage(); const t = process.hrtime.bigint();',
    `await import(${JSON.stringify(pathToFileURL(file).href)});`,
    'const wall = Number(process.hrtime.bigint() - t) / 1e6; const cpu = process.cpuUsage(c);',
    'process.stdout.write(JSON.stringify({ wallMs: wall, cpuMs: (cpu.user + cpu.system) / 1000 }));',
  ].join('\n');
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT });
  return JSON.parse(stdout) as { wallMs: number; cpuMs: number };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};
const round = (value: number, digits = 1) => Number(value.toFixed(digits));

async function bundleRows(bundles: FunctionBundles): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const entry of ENTRIES) {
    const code = join(bundles.directoryFor(entry.file), 'index.mjs');
    const [table] = bundles.runtimeFilesOf(entry.file);
    if (table !== TABLE_FILE) throw new Error(`${entry.name} is bundled without the ZIP table`);
    const times: Array<{ wallMs: number; cpuMs: number }> = [];
    for (let index = 0; index < COLD_RUNS; index++) times.push(await coldImport(code));
    rows.push({
      name: `${entry.name} bundle (table shipped beside it)`,
      bundleKB: round(statSync(code).size / 1024),
      bundleGzipKB: round(gzipSync(readFileSync(code)).length / 1024),
      tableKB: round(statSync(table).size / 1024),
      tableGzipKB: round(gzipSync(readFileSync(table)).length / 1024),
      coldImportMs: round(median(times.map((time) => time.wallMs))),
      coldImportCpuMs: round(median(times.map((time) => time.cpuMs))),
    });
  }
  return rows;
}

/** The first lookup of a fresh process reads the table and splits its name lists; later ones only search. */
async function firstLookupRow(directory: string): Promise<BenchRow> {
  const script = [
    'const h = () => process.hrtime.bigint();',
    `const t0 = h(); const { lookupZip } = await import(${JSON.stringify(pathToFileURL(join(directory, 'index.mjs')).href)}); const t1 = h();`,
    "const c = process.cpuUsage(); lookupZip('90210'); const t2 = h(); const cpu = process.cpuUsage(c);",
    "const zips = ['90210', '02134', '10001', '60601', '99950', '00000', '96860', '33101'];",
    'const n = 200000; for (let i = 0; i < n; i++) lookupZip(zips[i % zips.length]); const t3 = h();',
    'process.stdout.write(JSON.stringify([Number(t1 - t0) / 1e6, Number(t2 - t1) / 1e6, Number(t3 - t2) / 1e3 / n, process.memoryUsage().heapUsed, (cpu.user + cpu.system) / 1000]));',
  ].join('\n');
  const samples: number[][] = [];
  for (let index = 0; index < COLD_RUNS; index++) {
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT });
    samples.push(JSON.parse(stdout) as number[]);
  }
  return {
    name: 'lookupZip in a fresh process (table read on the first lookup)',
    importMs: round(median(samples.map((sample) => sample[0]!))),
    firstLookupMs: round(median(samples.map((sample) => sample[1]!)), 2),
    firstLookupCpuMs: round(median(samples.map((sample) => sample[4]!)), 2),
    warmLookupMicros: round(median(samples.map((sample) => sample[2]!)), 2),
    heapMB: round(median(samples.map((sample) => sample[3]!)) / 1024 / 1024),
  };
}

async function operationRows(context: BenchContext): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const probes = [
    { name: 'retrieveAddressInfoFromZip', path: ADDRESS_INFO, body: { zip: '90210' } },
    { name: 'retrievePropertyInfoFromZip', path: PROPERTY_INFO, body: { json_dict: { stateAbbr: 'CA', zip: '90210' } } },
  ];
  for (const probe of probes) {
    const call = await context.call(probe.path, probe.body);
    if (call.body?.data?.valid !== true) throw new Error(`${probe.name} answered ${JSON.stringify(call.body)}`);
    const latency = await context.latency(probe.path, probe.body, { requests: 200, concurrency: 8 });
    rows.push({
      name: `${probe.name} (bundled table, through the service)`,
      readUnits: call.readUnits,
      writeUnits: call.writeUnits,
      p50Ms: latency.p50,
      p99Ms: latency.p99,
      rps: latency.rps,
    });
  }
  return rows;
}

/** Every ZIP of the bundled table, as the items a DynamoDB-backed lookup would read. */
function zipItems() {
  const table = parseTableText(readFileSync(TABLE_FILE, 'utf8'));
  const zips = new Set<string>();
  for (let at = 0; at < table.records.length; at += RECORD_WIDTH) zips.add(table.records.slice(at, at + ZIP_WIDTH));
  return [...zips].map((zip) => {
    const info = lookupZip(zip);
    // The county id is derived from the FIPS code, so the item would not need to store it.
    const counties = info.counties.map(({ name, fips }) => ({ name, fips }));
    return { pk: `BENCHZIP#${zip}`, sk: 'ZIP', stateAbbr: info.stateAbbr, cities: info.cities, counties };
  });
}

async function dynamoAlternativeRows(): Promise<BenchRow[]> {
  const client = DynamoDBDocumentClient.from(new DynamoDBClient({}), { marshallOptions: { removeUndefinedValues: true } });
  const tableName = config.tableName();
  const items = zipItems();
  // Spread over the ZIP range, so that long and short items are both represented.
  const sample = Array.from({ length: PROTOTYPE_SAMPLE }, (_, index) => items[Math.floor((index * items.length) / PROTOTYPE_SAMPLE)]!);
  const capacity = (consumed: Array<{ CapacityUnits?: number }> | undefined) => (consumed ?? []).reduce((sum, entry) => sum + (entry.CapacityUnits ?? 0), 0);

  let writeUnits = 0;
  const writeStarted = performance.now();
  for (let index = 0; index < sample.length; index += 25) {
    let requests: Array<Record<string, unknown>> | undefined = sample.slice(index, index + 25).map((Item) => ({ PutRequest: { Item } }));
    while (requests && requests.length > 0) {
      const answer = await client.send(new BatchWriteCommand({ RequestItems: { [tableName]: requests as never }, ReturnConsumedCapacity: 'TOTAL' }));
      writeUnits += capacity(answer.ConsumedCapacity);
      requests = answer.UnprocessedItems?.[tableName] as typeof requests;
    }
  }
  const writeMs = performance.now() - writeStarted;

  let readUnits = 0;
  const readTimes: number[] = [];
  for (const item of sample) {
    const started = performance.now();
    const answer = await client.send(new GetCommand({ TableName: tableName, Key: { pk: item.pk, sk: item.sk }, ReturnConsumedCapacity: 'TOTAL' }));
    readTimes.push(performance.now() - started);
    readUnits += answer.ConsumedCapacity?.CapacityUnits ?? 0;
    if (!answer.Item) throw new Error(`prototype item ${item.pk} was not read back`);
  }

  for (let index = 0; index < sample.length; index += 25) {
    let requests: Array<Record<string, unknown>> | undefined = sample
      .slice(index, index + 25)
      .map((item) => ({ DeleteRequest: { Key: { pk: item.pk, sk: item.sk } } }));
    while (requests && requests.length > 0) {
      const answer = await client.send(new BatchWriteCommand({ RequestItems: { [tableName]: requests as never } }));
      requests = answer.UnprocessedItems?.[tableName] as typeof requests;
    }
  }

  const itemBytes = sample.map((item) => Buffer.byteLength(JSON.stringify(item)));
  const writeUnitsPerItem = writeUnits / sample.length;
  const bootstrapWriteUnits = Math.round(writeUnitsPerItem * items.length);
  const readUnitsPerLookup = readUnits / sample.length;
  const sortedReads = [...readTimes].sort((a, b) => a - b);
  return [
    {
      name: 'DynamoDB alternative: one-time bootstrap of every ZIP item',
      zipItems: items.length,
      writeUnitsPerItem: round(writeUnitsPerItem, 2),
      bootstrapWriteUnits,
      bootstrapCostUSD: round((bootstrapWriteUnits / 1e6) * PRICE_PER_MILLION_WRITE_UNITS, 4),
      batchWriteRequests: Math.ceil(items.length / 25),
      bootstrapWriteSecondsLocal: round(((writeMs / sample.length) * items.length) / 1000),
      meanItemBytes: Math.round(itemBytes.reduce((sum, bytes) => sum + bytes, 0) / itemBytes.length),
    },
    {
      name: 'DynamoDB alternative: per lookup (GetItem, eventually consistent)',
      readUnitsPerLookup: round(readUnitsPerLookup, 2),
      costPerMillionLookupsUSD: round(readUnitsPerLookup * PRICE_PER_MILLION_READ_UNITS, 4),
      p50MsLocal: round(sortedReads[Math.floor(sortedReads.length / 2)]!, 2),
      p99MsLocal: round(sortedReads[Math.floor(sortedReads.length * 0.99)]!, 2),
    },
  ];
}
