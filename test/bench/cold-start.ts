/**
 * Cold start of every function against a bare DynamoDB handler (test/bench/bare-handler.ts),
 * built together in one run with the CDK app's own bundler (infra/bundles.ts), so that the
 * two differ only in what our code pulls in.
 *
 * Cold import is the time `await import()` of a bundle takes in a fresh Node process, with
 * the flags the deployed functions run with. Each function's imports are interleaved with
 * the bare handler's (bare, function, bare, function, ...) so that whatever else the machine
 * is doing hits both alike; the ratio is the median of the per-pair ratios.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { FunctionBundles } from '../../infra/bundles.js';
import { listOperationRoutes } from '../../infra/routes.js';
import { TABLE_FILE_NAME } from '../../shared/geography/zip-table-format.js';

export const BARE_HANDLER = fileURLToPath(new URL('./bare-handler.ts', import.meta.url));
/**
 * A function is measured against the bare handler carrying the same heavy pieces it cannot do
 * without: the S3 client (it uses the bucket) and the X-Ray tracer (a money path). The bare
 * DynamoDB handler is the yardstick of every other function, and of those that render or look
 * ZIP codes up, whose targets were set against it.
 */
export const YARDSTICKS = {
  bare: BARE_HANDLER,
  S3: fileURLToPath(new URL('./bare-s3-handler.ts', import.meta.url)),
  traced: fileURLToPath(new URL('./bare-traced-handler.ts', import.meta.url)),
  'S3+traced': fileURLToPath(new URL('./bare-s3-traced-handler.ts', import.meta.url)),
} as const;
export type Yardstick = keyof typeof YARDSTICKS;

const S3_CLIENT = /[\\/]node_modules[\\/]@aws-sdk[\\/]client-s3[\\/]/;
const TRACER = /[\\/]node_modules[\\/]@aws-lambda-powertools[\\/]tracer[\\/]/;

/** The yardstick of a bundle, from its inputs and the files shipped beside it. */
export function yardstickOf(inputs: readonly string[], special: boolean): Yardstick {
  if (special) return 'bare';
  const s3 = inputs.some((input) => S3_CLIENT.test(input));
  const traced = inputs.some((input) => TRACER.test(input));
  return s3 && traced ? 'S3+traced' : s3 ? 'S3' : traced ? 'traced' : 'bare';
}
const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const EVENTS_DIR = join(PROJECT_ROOT, 'events');

/** Issue 9's targets, relative to the bare handler. */
export const COLD_START_TARGETS = {
  /** Cold import of a function that does no ZIP lookup, at most this times the bare one's. */
  importRatio: 1.3,
  /** Cold import of a function whose bundle reads the ZIP table (a lookup on its cold path; not one that loads the lookup on first use, as the moves do for a moratorium check). */
  zipImportRatio: 1.5,
  /** Bundle of a function that does no ZIP lookup, at most this much larger than the bare one. */
  bundleOverBareKiB: 120,
  /** Issue 16: cold import of a function that renders PDFs (it ships the renderer module beside its bundle). */
  renderImportRatio: 1.7,
  /** Issue 16: the bundle of a function that ships the idempotency store (it takes an Idempotency-Key, or a consumer keeps its outcomes) may be this much larger. */
  idempotentBundleOverBareKiB: 160,
};

/**
 * The flags every deployed function runs with (NODE_OPTIONS of infra/constructs/service-function.ts):
 * none since issue 35, which measured `--enable-source-maps` at 8 to 15 ms of CPU per cold import
 * (`npm run bench -- --source-maps` imports with it); stacks are mapped when a fault is logged.
 */
export const LAMBDA_NODE_FLAGS: string[] = [];
/** What the functions ran with before: every import parsed the bundle's source map. */
export const SOURCE_MAP_FLAGS = ['--enable-source-maps'];

export interface ColdStartTarget {
  /** `/api/v2/policies/create_policy` for an operation, `events/bootstrap/seed-reference-product` for a worker. */
  name: string;
  kind: 'operation' | 'worker';
  entry: string;
}

/**
 * A function that ships the idempotency store (shared/platform/idempotency-dynamodb.ts): an
 * operation that declares `idempotent` (defineIdempotentOperation), or a consumer that keeps each
 * message's outcome because delivery can repeat (defineConsumer's `idempotency`). Tree-shaking
 * drops the store from every bundle that does not use it, so its presence among the inputs is the test.
 */
const IDEMPOTENCY_STORE = join(PROJECT_ROOT, 'shared', 'platform', 'idempotency-dynamodb.ts');
const shipsIdempotencyStore = (inputs: string[]) => inputs.includes(IDEMPOTENCY_STORE);

export interface ColdStartRow {
  name: string;
  /** JavaScript of the bundle (source maps and data files not counted). */
  bundleKiB: number;
  /**
   * Files shipped beside the bundle and read only when first needed: data (the ZIP table) and
   * modules loaded on first use (the PDF renderer, a large lockbox file's start). Not parsed at
   * a cold start, so not in bundleKiB.
   */
  dataKiB: number;
  overBareKiB: number;
  importMs: number;
  /** Median import of the bare handler in the runs paired with this function's. */
  bareImportMs: number;
  importRatio: number;
  /** Median CPU time of the import (all the process's threads). */
  cpuMs: number;
  /** The same ratio on CPU time rather than wall-clock time: on a busy machine, the steadier of the two. */
  cpuRatio: number;
  zipTable: boolean;
  /** Ships the PDF renderer, loaded on the first render (target renderImportRatio). */
  renders: boolean;
  /** Ships the idempotency store: takes an Idempotency-Key, or keeps a consumer's outcomes (target idempotentBundleOverBareKiB). */
  idempotent: boolean;
  /** What +KiB and the ratios are measured against (YARDSTICKS): the bare handler with the S3 client and the tracer when the function has them. */
  yardstick: Yardstick;
  meetsTarget: boolean;
}

export interface ColdStartReport {
  runs: number;
  nodeFlags: string[];
  bare: { bundleKiB: number; importMs: number; cpuMs: number };
  /** The other yardsticks, each imported once a round. */
  yardsticks: Partial<Record<Yardstick, { bundleKiB: number; importMs: number; cpuMs: number }>>;
  targets: typeof COLD_START_TARGETS;
  rows: ColdStartRow[];
}

/** Every function under functions/ and events/, in route order. */
export function coldStartTargets(): ColdStartTarget[] {
  const operations = listOperationRoutes().map((route) => ({ name: route.path, kind: 'operation' as const, entry: route.entry }));
  return [...operations, ...workerFiles(EVENTS_DIR).map((entry) => ({ name: workerName(entry), kind: 'worker' as const, entry }))];
}

function workerFiles(dir: string): string[] {
  let found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) found = found.concat(workerFiles(full));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') && !entry.name.endsWith('.test.ts')) found.push(full);
  }
  return found.sort();
}

const workerName = (entry: string) => relative(PROJECT_ROOT, entry).slice(0, -'.ts'.length).split(sep).join('/');

/**
 * The targets `--functions a,b` asks for: a name matches its operation's or worker's last
 * path segment exactly (`create_policy`), or any part of its path when it holds a slash
 * (`v2/policies/`, `events/`).
 */
export function selectTargets(targets: ColdStartTarget[], filter: string[]): ColdStartTarget[] {
  if (filter.length === 0) return targets;
  const selected = targets.filter((target) =>
    filter.some((wanted) => (wanted.includes('/') ? target.name.includes(wanted) : target.name.split('/').pop() === wanted)),
  );
  if (selected.length === 0) throw new Error(`--functions ${filter.join(',')} matches no function`);
  return selected;
}

export function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The median of `samples[i] / bare[i]`: each pair ran back to back, so it shares the machine's state. */
export function pairedRatio(samples: number[], bare: number[]): number {
  return median(samples.map((sample, index) => sample / bare[index]));
}

export function meetsTarget(row: Pick<ColdStartRow, 'zipTable' | 'importRatio' | 'overBareKiB'> & { renders?: boolean; idempotent?: boolean }, targets = COLD_START_TARGETS): boolean {
  if (row.zipTable) return row.importRatio <= targets.zipImportRatio;
  if (row.renders) return row.importRatio <= targets.renderImportRatio;
  const overBareKiB = row.idempotent ? targets.idempotentBundleOverBareKiB : targets.bundleOverBareKiB;
  return row.importRatio <= targets.importRatio && row.overBareKiB <= overBareKiB;
}

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

/** Bytes of JavaScript in a bundle directory that a cold start loads (a run-time module, the PDF renderer, counts as data). */
/** What a cold start parses: `index.mjs`, not the modules beside it loaded on first use. */
function bundleBytes(directory: string): number {
  return statSync(join(directory, 'index.mjs')).size;
}

const fileBytes = (files: string[]) => files.reduce((total, file) => total + statSync(file).size, 0);

/** An environment like a function's, without the bench's own variables. */
const IMPORT_ENV = {
  PATH: process.env.PATH ?? '',
  AWS_REGION: 'us-east-1',
  TABLE_NAME: 'bench',
  BUCKET_NAME: 'bench',
  POWERTOOLS_SERVICE_NAME: 'insurance-admin',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
};

interface ImportTime {
  /** Wall-clock milliseconds of `await import()`. */
  wall: number;
  /** CPU milliseconds the process spent meanwhile (all its threads): less sensitive to a busy machine. */
  cpu: number;
}

/** How long `await import()` of the bundle takes in a fresh Node process. */
function importOnce(directory: string, nodeFlags: string[]): ImportTime {
  const url = pathToFileURL(join(directory, 'index.mjs')).href;
  const script = [
    'const cpu = process.cpuUsage(); const t = performance.now();',
    `await import(${JSON.stringify(url)});`,
    'const wall = performance.now() - t; const used = process.cpuUsage(cpu);',
    'process.stdout.write(JSON.stringify({ wall, cpu: (used.user + used.system) / 1000 }));',
  ].join(' ');
  const output = execFileSync(process.execPath, [...nodeFlags, '--input-type=module', '-e', script], { env: IMPORT_ENV, encoding: 'utf8' });
  const time = JSON.parse(output) as ImportTime;
  if (!Number.isFinite(time.wall) || !Number.isFinite(time.cpu)) throw new Error(`Importing ${directory} printed ${output}`);
  return time;
}

export interface ColdStartOptions {
  targets: ColdStartTarget[];
  runs: number;
  nodeFlags?: string[];
  /** Called after each round of imports (progress). */
  onRound?: (round: number) => void;
}

/** What a function's bundle weighs against its yardstick, and the budget that applies (no imports: sizes only). */
export interface BundleSize {
  name: string;
  overBareKiB: number;
  yardstick: Yardstick;
  zipTable: boolean;
  renders: boolean;
  idempotent: boolean;
  /** The +KiB budget of COLD_START_TARGETS; undefined for ZIP and rendering functions, held to their import ratio only. */
  budgetKiB?: number;
}

/** The bundle sizes of `targets` over their yardsticks, built as the bench and the CDK app build them. */
export function measureBundleSizes(targets: ColdStartTarget[]): BundleSize[] {
  const bundles = new FunctionBundles([...Object.values(YARDSTICKS), ...targets.map((target) => target.entry)]);
  try {
    return targets.map((target) => {
      const named = bundles.filesNamedByBundleOf(target.entry);
      const zipTable = named.some(isZipTable);
      const renders = named.some((file) => file.endsWith(`/${RENDERER_FILE_NAME}`));
      const yardstick = yardstickOf(bundles.inputsOf(target.entry), zipTable || renders);
      const idempotent = shipsIdempotencyStore(bundles.inputsOf(target.entry));
      const overBareKiB = round((bundleBytes(bundles.directoryFor(target.entry)) - bundleBytes(bundles.directoryFor(YARDSTICKS[yardstick]))) / 1024);
      const budgetKiB = zipTable || renders ? undefined : idempotent ? COLD_START_TARGETS.idempotentBundleOverBareKiB : COLD_START_TARGETS.bundleOverBareKiB;
      return { name: target.name, overBareKiB, yardstick, zipTable, renders, idempotent, budgetKiB };
    });
  } finally {
    bundles.dispose();
  }
}

export async function measureColdStarts(options: ColdStartOptions): Promise<ColdStartReport> {
  const nodeFlags = options.nodeFlags ?? LAMBDA_NODE_FLAGS;
  const bundles = new FunctionBundles([...Object.values(YARDSTICKS), ...options.targets.map((target) => target.entry)]);
  try {
    const bareDir = bundles.directoryFor(BARE_HANDLER);
    const yardstickDir = (yardstick: Yardstick) => bundles.directoryFor(YARDSTICKS[yardstick]);
    const yardsticks = new Map(
      options.targets.map((target) => {
        const special = bundles.filesNamedByBundleOf(target.entry).some((file) => isZipTable(file) || file.endsWith(`/${RENDERER_FILE_NAME}`));
        return [target, yardstickOf(bundles.inputsOf(target.entry), special)] as const;
      }),
    );
    const samples = new Map(options.targets.map((target) => [target, { own: [] as ImportTime[], bare: [] as ImportTime[] }]));
    const others = (Object.keys(YARDSTICKS) as Yardstick[]).filter((yardstick) => yardstick !== 'bare' && [...yardsticks.values()].includes(yardstick));
    const otherSamples = new Map(others.map((yardstick) => [yardstick, [] as ImportTime[]]));
    for (let run = 1; run <= options.runs; run += 1) {
      for (const target of options.targets) {
        const pair = samples.get(target)!;
        pair.bare.push(importOnce(yardstickDir(yardsticks.get(target)!), nodeFlags));
        pair.own.push(importOnce(bundles.directoryFor(target.entry), nodeFlags));
      }
      for (const yardstick of others) otherSamples.get(yardstick)!.push(importOnce(yardstickDir(yardstick), nodeFlags));
      options.onRound?.(run);
    }
    const rows = options.targets.map((target) => {
      const { own, bare } = samples.get(target)!;
      const [wall, bareWall] = [own.map((time) => time.wall), bare.map((time) => time.wall)];
      const bytes = bundleBytes(bundles.directoryFor(target.entry));
      const dataFiles = bundles.runtimeFilesOf(target.entry);
      const row = {
        name: target.name,
        bundleKiB: round(bytes / 1024),
        dataKiB: round(fileBytes(dataFiles) / 1024),
        overBareKiB: round((bytes - bundleBytes(yardstickDir(yardsticks.get(target)!))) / 1024),
        importMs: round(median(wall)),
        bareImportMs: round(median(bareWall)),
        importRatio: round(pairedRatio(wall, bareWall), 2),
        cpuMs: round(median(own.map((time) => time.cpu))),
        cpuRatio: round(pairedRatio(own.map((time) => time.cpu), bare.map((time) => time.cpu)), 2),
        zipTable: bundles.filesNamedByBundleOf(target.entry).some(isZipTable),
        renders: bundles.filesNamedByBundleOf(target.entry).some((file) => file.endsWith(`/${RENDERER_FILE_NAME}`)),
        idempotent: shipsIdempotencyStore(bundles.inputsOf(target.entry)),
        yardstick: yardsticks.get(target)!,
      };
      return { ...row, meetsTarget: meetsTarget(row) };
    });
    const allBare = options.targets.filter((target) => yardsticks.get(target) === 'bare').flatMap((target) => samples.get(target)!.bare);
    const summary = (dir: string, times: ImportTime[]) => ({ bundleKiB: round(bundleBytes(dir) / 1024), importMs: round(median(times.map((time) => time.wall))), cpuMs: round(median(times.map((time) => time.cpu))) });
    const otherSummaries = Object.fromEntries(others.map((yardstick) => [yardstick, summary(yardstickDir(yardstick), otherSamples.get(yardstick)!)]));
    return { runs: options.runs, nodeFlags, bare: summary(bareDir, allBare), yardsticks: otherSummaries, targets: COLD_START_TARGETS, rows };
  } finally {
    bundles.dispose();
  }
}

/** The PDF renderer, built beside the bundle of a function that may render (shared/documents/pdf-renderer.ts). */
const RENDERER_FILE_NAME = 'pdf-renderer.mjs';

/** The ZIP table's data file (shared/geography/zip-table-format.ts TABLE_FILE_NAME). */
const isZipTable = (file: string) => file === join(PROJECT_ROOT, 'shared', 'geography', TABLE_FILE_NAME);

/** The report as the table `npm run bench` prints. */
export function formatColdStarts(report: ColdStartReport): string {
  const header = ['function', 'KiB', '+KiB', 'later KiB', 'import ms', 'bare ms', 'import ×', 'cpu ms', 'cpu ×', 'ZIP', 'PDF', 'key', 'against', 'target'];
  const lines = report.rows.map((row) => [
    row.name,
    row.bundleKiB.toFixed(1),
    row.overBareKiB.toFixed(1),
    row.dataKiB ? row.dataKiB.toFixed(1) : '',
    row.importMs.toFixed(1),
    row.bareImportMs.toFixed(1),
    row.importRatio.toFixed(2),
    row.cpuMs.toFixed(1),
    row.cpuRatio.toFixed(2),
    row.zipTable ? 'yes' : '',
    row.renders ? 'yes' : '',
    row.idempotent ? 'yes' : '',
    row.yardstick,
    row.meetsTarget ? 'ok' : 'MISSED',
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column].length)));
  const format = (cells: string[]) => cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ');
  const missed = report.rows.filter((row) => !row.meetsTarget).length;
  return [
    `bare handler: ${report.bare.bundleKiB.toFixed(1)} KiB, cold import ${report.bare.importMs.toFixed(1)} ms, ${report.bare.cpuMs.toFixed(1)} ms CPU (medians; ${report.runs} runs per function, node ${report.nodeFlags.join(' ') || '(no flags)'})`,
    ...Object.entries(report.yardsticks).map(
      ([name, yardstick]) => `bare ${name} handler (what the functions marked ${name} are measured against): ${yardstick.bundleKiB.toFixed(1)} KiB, cold import ${yardstick.importMs.toFixed(1)} ms, ${yardstick.cpuMs.toFixed(1)} ms CPU, ${(yardstick.importMs / report.bare.importMs).toFixed(2)}× the bare import`,
    ),
    format(header),
    ...lines.map(format),
    `targets: import × ≤ ${report.targets.importRatio} and +KiB ≤ ${report.targets.bundleOverBareKiB} (${report.targets.idempotentBundleOverBareKiB} with the idempotency store: key) without the ZIP table or the PDF renderer (against the bare handler with the S3 client and the tracer when the function has them), later KiB: loaded on first use, not at a cold start; import × ≤ ${report.targets.zipImportRatio} with the ZIP table, ≤ ${report.targets.renderImportRatio} with the renderer; ${missed} of ${report.rows.length} missed`,
  ].join('\n');
}
