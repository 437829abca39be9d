/**
 * Who holds `.data/`: the one process whose stores may open it. `npm start` (and `npm run
 * nightly` when no service is running) claims it before starting any store, and writes its
 * address there once it listens, so that the local tools (print-job, nightly, demo) find the
 * running service by themselves. A claim left by a process that died is taken over: the pid
 * it names is checked (a killed one not yet reaped by its parent counts as dead), so a killed
 * `npm start` never blocks the next one.
 */
import { closeSync, existsSync, openSync, readFileSync, renameSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { isAlive } from './processes.js';

/** The claim and, once listening, the address: `{pid, port, url, command, startedAt}`. */
export const SERVICE_FILE = 'service.json';

export interface DataDirHolder {
  pid: number;
  command: string;
  startedAt: string;
  /** The port it listens on (or will), when it serves the API. */
  port?: number;
  /** Set once the API listens. */
  url?: string;
}

/** Refused: another living process holds the directory. Its message is the one line to print. */
export class DataDirBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: DataDirHolder,
  ) {
    super(
      `${dataDir} is in use by \`${holder.command}\` (pid ${holder.pid}${holder.port ? `, port ${holder.port}` : ''}, since ${holder.startedAt}): ` +
        'stop it first, or start with `npm start -- --memory` for a run that keeps nothing',
    );
    this.name = 'DataDirBusyError';
  }
}

export interface DataDirClaim {
  /** Records the address the service answers on, for the local tools. */
  announce(url: string, port: number): void;
  /** Gives the directory up (idempotent); also done when the process exits. */
  release(): void;
}

function readHolder(file: string): DataDirHolder | undefined {
  try {
    const holder = JSON.parse(readFileSync(file, 'utf8')) as DataDirHolder;
    return Number.isInteger(holder.pid) ? holder : undefined;
  } catch {
    return undefined;
  }
}

/** The living process holding `dataDir`, if any (a stale claim counts as none). */
export function dataDirHolder(dataDir: string): DataDirHolder | undefined {
  const holder = readHolder(join(dataDir, SERVICE_FILE));
  return holder && isAlive(holder.pid) ? holder : undefined;
}

/**
 * Claims `dataDir` for this process, or throws DataDirBusyError naming the holder. The claim
 * is an exclusively created file, so two processes starting at once cannot both get it.
 */
export function claimDataDir(dataDir: string, who: { command: string; port?: number }): DataDirClaim {
  const file = join(dataDir, SERVICE_FILE);
  const record: DataDirHolder = { pid: process.pid, command: who.command, startedAt: new Date().toISOString(), ...(who.port ? { port: who.port } : {}) };
  for (let attempt = 0; ; attempt += 1) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, `${JSON.stringify(record)}\n`);
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 2) throw error;
      const holder = readHolder(file);
      if (holder && holder.pid !== process.pid && isAlive(holder.pid)) throw new DataDirBusyError(dataDir, holder);
      // Left by a process that is gone (or half written by one killed while claiming): taken over.
      try {
        unlinkSync(file);
      } catch {
        // Another starter removed it first; the next attempt sees who won.
      }
    }
  }
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    // Only our own claim is removed, never one a successor took over.
    if (readHolder(file)?.pid === process.pid && existsSync(file)) unlinkSync(file);
  };
  process.once('exit', release);
  return {
    announce(url, port) {
      if (released) return;
      const temporary = `${file}.${process.pid}.tmp`;
      writeFileSync(temporary, `${JSON.stringify({ ...record, port, url })}\n`, { mode: 0o600 });
      renameSync(temporary, file);
    },
    release,
  };
}

/** Whether something already listens on the port (checked before any store starts). */
export async function portInUse(port: number, host = '0.0.0.0'): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'EADDRINUSE' || error.code === 'EACCES'));
    probe.listen(port, host, () => probe.close(() => resolve(false)));
  });
}
