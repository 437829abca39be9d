/**
 * A new user's mistakes on a laptop, each answered in one line: a second `npm start` on the
 * same .data/, a busy port, a local tool run with no service; and `GET /`, which says where
 * the docs are, the version and whether the stores answer.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimDataDir, DataDirBusyError, dataDirHolder, SERVICE_FILE } from '../../infra/local/data-lock.js';
import { findRunningService } from '../../infra/local/running-service.js';
import { freePort } from '../../infra/local/stores.js';
import { startTestService, type TestService } from '../support/service.js';
import { runCommand } from '../support/processes.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A local tool run with tsx, as its npm script runs it. */
const run = (args: string[], env: Record<string, string>) => runCommand('npx', ['tsx', ...args], env);

/** stderr without npm's own notices about this machine's configuration. */
const ownLines = (stderr: string) => stderr.split('\n').filter((line) => line.trim() && !line.startsWith('npm warn'));

/** The pid of a process that has exited (a killed `npm start`). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

const scratch: string[] = [];
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'ias-data-'));
  scratch.push(dir);
  return dir;
};

afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

describe('one process holds .data/', () => {
  it('refuses a second claim naming the holder, its pid and its port', () => {
    const dir = dataDir();
    // Another living process (this one's parent) holds it.
    writeFileSync(join(dir, SERVICE_FILE), JSON.stringify({ pid: process.ppid, command: 'npm start', port: 3000, startedAt: '2026-11-25T08:00:00.000Z', url: 'http://localhost:3000' }));
    let refusal: unknown;
    try {
      claimDataDir(dir, { command: 'npm start', port: 3001 });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(DataDirBusyError);
    expect((refusal as Error).message).toBe(
      `${dir} is in use by \`npm start\` (pid ${process.ppid}, port 3000, since 2026-11-25T08:00:00.000Z): stop it first, or start with \`npm start -- --memory\` for a run that keeps nothing`,
    );
    expect((refusal as Error).message).not.toContain('\n');
  });

  it('takes over the claim of a process that is gone, and gives it up when released', async () => {
    const dir = dataDir();
    writeFileSync(join(dir, SERVICE_FILE), JSON.stringify({ pid: await deadPid(), command: 'npm start', port: 3000, startedAt: '2026-11-24T08:00:00.000Z' }));
    expect(dataDirHolder(dir)).toBeUndefined();
    const claim = claimDataDir(dir, { command: 'npm start', port: 3001 });
    claim.announce('http://localhost:3001', 3001);
    expect(dataDirHolder(dir)).toMatchObject({ pid: process.pid, port: 3001, url: 'http://localhost:3001' });
    claim.release();
    expect(existsSync(join(dir, SERVICE_FILE))).toBe(false);
  });

  it('a local tool finds the holder\'s address and key, or says in one line that no service runs', () => {
    const dir = dataDir();
    expect(() => findRunningService({ npm_lifecycle_event: 'print-job' }, dir)).toThrow(
      `No service found in ${dir}: is \`npm start\` running? (one started with \`--memory\` or on another port: give its port and key, as in \`PORT=3001 BOOTSTRAP_API_KEY=<the key it printed at start> npm run print-job\`)`,
    );
    // Its port given, but no key: how to give the key too.
    expect(() => findRunningService({ PORT: '3001', npm_lifecycle_event: 'nightly' }, dir)).toThrow(/BOOTSTRAP_API_KEY is not set: is `npm start` running\? \(.*`PORT=3001 BOOTSTRAP_API_KEY=<the key it printed at start> npm run nightly`\)$/);
    const claim = claimDataDir(dir, { command: 'npm start', port: 3005 });
    claim.announce('http://localhost:3005', 3005);
    writeFileSync(join(dir, 'admin-api-key'), 'ias_example\n');
    expect(findRunningService({}, dir)).toMatchObject({ url: 'http://localhost:3005', apiKey: 'ias_example' });
    claim.release();
  });
});

describe('one-line answers of the local commands', () => {
  let busy: Server;
  let busyPort: number;
  beforeAll(async () => {
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '0.0.0.0', resolve));
    busyPort = (busy.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => busy.close(() => resolve())));

  it('npm start on a busy port says so in one line, before starting any store', async () => {
    const result = await run(['infra/local/main.ts', '--memory'], { PORT: String(busyPort) });
    expect(result.code).toBe(1);
    expect(ownLines(result.stderr)).toEqual([`Port ${busyPort} is already in use by another program: stop it, or choose another port (PORT=3001 npm start)`]);
  }, 60_000);

  it('npm run print-job with no service answering asks whether npm start is running, in one line', async () => {
    // A port nothing listens on.
    const result = await run(['infra/local/run-schedule.ts', 'nightly_print'], { API_URL: `http://127.0.0.1:${await freePort()}`, BOOTSTRAP_API_KEY: 'ias_x' });
    expect(result.code).toBe(1);
    expect(ownLines(result.stderr).length).toBe(1);
    expect(ownLines(result.stderr)[0]).toMatch(/^Cannot reach http:\/\/127\.0\.0\.1:\d+: is `npm start` running\? \(one started with `--memory` or on another port: give its port and key, as in `PORT=3001 BOOTSTRAP_API_KEY=<the key it printed at start> npm run <tool>`\)$/);
  }, 60_000);
});

describe('npm test on a machine without a tool it needs', () => {
  it('fails in one line naming what is missing and what it is for', async () => {
    const child = spawn('npx', ['vitest', 'run', 'test/e2e/browser.test.ts'], { cwd: ROOT, env: { ...process.env, CHROMIUM_PATH: '/nonexistent/chromium' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const code = await new Promise((resolve) => child.once('close', resolve));
    expect(code).not.toBe(0);
    const lines = output.split('\n').filter((line) => line.includes('/nonexistent/chromium'));
    expect(lines).toEqual([
      'The e2e tests need Chromium (/nonexistent/chromium) for the browser tests (apt-get install chromium, or set CHROMIUM_PATH): not found on this machine (.ci/run installs them)',
    ]);
    expect(output).not.toMatch(/\bat .*\(.*:\d+:\d+\)/);
  }, 120_000);
});

describe('GET /', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('names the docs, the OpenAPI description, the version and the health of each store', async () => {
    const response = await fetch(`${service.url}/`);
    expect(response.status).toBe(200);
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    expect(await response.json()).toMatchObject({
      docs: '/docs',
      openapi: '/api/openapi.json',
      version,
      healthy: true,
      stores: { table: 'ok', bucket: 'ok', queues: 'ok' },
    });
    expect((await fetch(`${service.url}/docs`)).status).toBe(200);
  });
});

describe('npm run nightly with a service started with --memory', () => {
  // Such a service leaves no address in .data/: the PORT and key it printed at start name it.
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ consumers: false });
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('runs on the service PORT names, not on the saved .data/, or refuses --memory beside it in one line', async () => {
    // A .data/ holding nothing, as beside a service that keeps nothing.
    const env = { PORT: String(service.port), BOOTSTRAP_API_KEY: service.administratorApiKey, SERVICE_DATA_DIR: dataDir() };
    const ran = await run(['infra/local/nightly.ts', 'billing', '2026-12-01'], env);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toMatch(new RegExp(`^nightly billing 2026-12-01: 0 accounts in 0 batches \\(run [^,]+, on http://localhost:${service.port}\\)$`, 'm'));
    const refused = await run(['infra/local/nightly.ts', 'billing', '2026-12-01', '--memory'], env);
    expect(refused.code).toBe(1);
    expect(ownLines(refused.stderr)).toEqual([
      `npm run nightly: --memory runs the night on a throwaway service of its own, but PORT=${service.port} names a running one: drop --memory to run it there, or unset PORT`,
    ]);
  }, 120_000);
});
