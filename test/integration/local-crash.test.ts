/**
 * `npm start` after a crash. A start killed with kill -9 (its whole process group) cannot stop
 * DynamoDB Local, which runs in a process group of its own, and may stay a defunct process while
 * its parent has not reaped it. The next start on the same data directory takes over whatever
 * the dead holder's state, stops the database the dead one left on the directory, and runs one of
 * its own: never two on one directory. Before any next start, the database's watchdog stops it.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { claimDataDir, dataDirHolder, SERVICE_FILE } from '../../infra/local/data-lock.js';
import { PROJECT_ROOT } from '../support/processes.js';

const scratch: string[] = [];
const children: ChildProcess[] = [];
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'ias-crash-'));
  scratch.push(dir);
  return dir;
};

afterAll(() => {
  // Whatever a failed run left: the starts, their databases, the parents.
  for (const dir of scratch) {
    const kill = (pid: number) => {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    };
    if (existsSync(join(dir, SERVICE_FILE))) kill(-(JSON.parse(readFileSync(join(dir, SERVICE_FILE), 'utf8')) as { pid: number }).pid);
    for (const pid of databasesOn(dir)) {
      for (const watchdog of watchdogsOf(pid)) kill(watchdog);
      kill(pid);
    }
  }
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/** What ps says of a process: its state letter, or undefined when there is none of that id. */
function stateOf(pid: number): string | undefined {
  try {
    return execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).trim().charAt(0) || undefined;
  } catch {
    return undefined;
  }
}

const runs = (pid: number) => ![undefined, 'Z', 'X'].includes(stateOf(pid));

/** The running (not defunct) processes serving a DynamoDB Local database under `dir`, as ps lists them. */
function databasesOn(dir: string): number[] {
  return execFileSync('ps', ['-eo', 'pid=,stat=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes('DynamoDBLocal.jar') && line.includes(`-dbPath ${join(dir, 'stores', 'dynamodb')}`))
    .map((line) => line.trim().split(/\s+/))
    .filter(([, state]) => !state.startsWith('Z'))
    .map(([pid]) => Number(pid));
}

/** Until the process prints `listening on` (its port) or exits (what it printed). */
function started(child: ChildProcess): Promise<{ port?: number; output: string }> {
  let output = '';
  return new Promise((resolve) => {
    const seen = (chunk: Buffer) => {
      output += chunk;
      const listening = /listening on http:\/\/localhost:(\d+)/.exec(output);
      if (listening) resolve({ port: Number(listening[1]), output });
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', seen);
    child.once('exit', () => resolve({ output }));
  });
}

/** What `npm start` runs, on `dir`, on a free port. */
const START = 'node --import tsx infra/local/main.ts';
const startEnv = (dir: string) => ({ ...process.env, SERVICE_DATA_DIR: dir, PORT: '0', POWERTOOLS_LOG_LEVEL: 'SILENT' });

/**
 * A start on `dir`, in a process group of its own (as a terminal's job is), under a parent that
 * does not reap it when it dies: its pid, its database's and its database's watchdog's.
 */
async function startToCrash(dir: string): Promise<{ holder: ChildProcess; crashed: number; database: number; watchdog: number }> {
  const holder = spawn('sh', ['-c', `setsid ${START} & exec sleep 600`], { cwd: PROJECT_ROOT, env: startEnv(dir), stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(holder);
  const first = await started(holder);
  expect(first.port, first.output).toBeDefined();
  const crashed = (JSON.parse(readFileSync(join(dir, SERVICE_FILE), 'utf8')) as { pid: number }).pid;
  const [database] = databasesOn(dir);
  expect(database).toBeDefined();
  const [watchdog] = watchdogsOf(database);
  expect(watchdog).toBeDefined();
  return { holder, crashed, database, watchdog };
}

describe('a start after a crash', () => {
  it('takes over the claim of a holder killed but not yet reaped (a defunct process is dead)', async () => {
    const dir = dataDir();
    // A parent that never reaps: `sleep` exec'd in place of the shell whose child has exited.
    const parent = spawn('sh', ['-c', 'sleep 0 & echo $!; exec sleep 600'], { stdio: ['ignore', 'pipe', 'ignore'] });
    children.push(parent);
    const defunct = Number(await new Promise<string>((resolve) => parent.stdout!.once('data', (chunk) => resolve(String(chunk)))));
    while (stateOf(defunct) !== 'Z') await new Promise((resolve) => setTimeout(resolve, 50));
    writeFileSync(join(dir, SERVICE_FILE), JSON.stringify({ pid: defunct, command: 'npm start', port: 3000, startedAt: '2026-11-24T08:00:00.000Z', url: 'http://localhost:3000' }));
    expect(dataDirHolder(dir)).toBeUndefined();
    const claim = claimDataDir(dir, { command: 'npm start', port: 3001 });
    expect(dataDirHolder(dir)).toMatchObject({ pid: process.pid });
    claim.release();
    parent.kill('SIGKILL');
  });

  it('after kill -9 of a start\'s process group, starts again on the same data, leaving no database of the dead start running', async () => {
    const dir = dataDir();
    const { holder, crashed, database: leftDatabase, watchdog: frozenWatchdog } = await startToCrash(dir);
    // Its watchdog held still (as if it had died too), so that the crash leaves the database running.
    process.kill(frozenWatchdog, 'SIGSTOP');
    process.kill(-crashed, 'SIGKILL');
    while (runs(crashed)) await new Promise((resolve) => setTimeout(resolve, 50));
    // The dead start's database goes on running on the directory: nothing of the dead start can stop it.
    expect(databasesOn(dir)).toEqual([leftDatabase]);

    const again = spawn('sh', ['-c', `exec ${START}`], { cwd: PROJECT_ROOT, env: startEnv(dir), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    children.push(again);
    const second = await started(again);
    expect(second.port, second.output).toBeDefined();
    expect(second.output).not.toMatch(/in use/);
    expect(runs(leftDatabase)).toBe(false);
    const [running, ...more] = databasesOn(dir);
    expect(more).toEqual([]);
    expect(running).not.toBe(leftDatabase);
    expect(((await (await fetch(`http://localhost:${second.port}/`)).json()) as { healthy: boolean }).healthy).toBe(true);
    // The held watchdog, let go, finds its database gone and leaves.
    process.kill(frozenWatchdog, 'SIGCONT');
    await until(() => !runs(frozenWatchdog));

    // Stopped as Ctrl-C stops it: its database with it.
    const exited = new Promise((resolve) => again.once('exit', resolve));
    again.kill('SIGINT');
    await exited;
    expect(databasesOn(dir)).toEqual([]);
    holder.kill('SIGKILL');
  }, 180_000);

  it("stops a start's database within seconds of the start's kill -9, by the watchdog beside it, before any next start", async () => {
    const dir = dataDir();
    const { holder, crashed, database, watchdog } = await startToCrash(dir);

    process.kill(-crashed, 'SIGKILL');
    await until(() => !runs(database));
    expect(databasesOn(dir)).toEqual([]);
    await until(() => !runs(watchdog));
    holder.kill('SIGKILL');
  }, 120_000);
});

/** Polls until `done`, failing after 30 s (a deadline, not a measurement). */
async function until(done: () => boolean): Promise<void> {
  for (let waited = 0; !done(); waited += 100) {
    if (waited > 30_000) throw new Error('still waiting after 30 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The watchdogs (infra/local/store-watchdog.ts) watching the database of that pid. */
function watchdogsOf(databasePid: number): number[] {
  return execFileSync('ps', ['-eo', 'pid=,stat=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields.some((field) => field.endsWith('store-watchdog.ts')) && fields[fields.length - 1] === String(databasePid) && !fields[1].startsWith('Z'))
    .map(([pid]) => Number(pid));
}
