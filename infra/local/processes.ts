/**
 * Processes as the local runtime must judge them after a crash: whether one still runs, what it
 * runs, and stopping one. A process killed with kill -9 whose parent has not reaped it (a zombie,
 * `<defunct>` in ps) still answers `kill(pid, 0)`, yet nothing of it runs: it holds no file and
 * no port, so it counts as gone. Linux is read from /proc; elsewhere `ps` answers.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

const HAS_PROC = existsSync('/proc/self/stat');

/** The one-letter state of a process (R, S, D, Z, ...), or undefined when there is no such process. */
function processState(pid: number): string | undefined {
  if (HAS_PROC) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // "pid (name) S ...": the name may hold spaces and parentheses, the state follows the last ')'.
      return stat.slice(stat.lastIndexOf(')') + 2).charAt(0) || undefined;
    } catch {
      return undefined;
    }
  }
  try {
    return execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim().charAt(0) || undefined;
  } catch {
    return undefined;
  }
}

/** Whether a process of that id runs (one of another user counts; a zombie does not). */
export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const state = processState(pid);
  // Z: exited, waiting for its parent to reap it; X: being reaped.
  return state !== 'Z' && state !== 'X';
}

/** The arguments a process was started with (its command first), or undefined when unreadable. */
export function commandLine(pid: number): string[] | undefined {
  if (HAS_PROC) {
    try {
      const text = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      return text ? text.replace(/\0$/, '').split('\0') : undefined;
    } catch {
      return undefined;
    }
  }
  try {
    // ps joins the arguments with spaces: enough to recognise a command and a path without spaces.
    const text = execFileSync('ps', ['-o', 'command=', '-p', String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return text ? text.split(/\s+/) : undefined;
  } catch {
    return undefined;
  }
}

/** The living processes whose command line `matches`. */
export function processesMatching(matches: (args: string[]) => boolean): number[] {
  let pids: number[];
  if (HAS_PROC) {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number);
  } else {
    try {
      pids = execFileSync('ps', ['-axo', 'pid='], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split('\n').map((line) => Number(line.trim())).filter((pid) => pid > 0);
    } catch {
      pids = [];
    }
  }
  return pids.filter((pid) => pid !== process.pid).filter((pid) => {
    const args = commandLine(pid);
    return args !== undefined && matches(args) && isAlive(pid);
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function gone(pid: number, withinMs: number): Promise<boolean> {
  for (const deadline = Date.now() + withinMs; Date.now() < deadline; await pause(100)) if (!isAlive(pid)) return true;
  return !isAlive(pid);
}

/** Asks a process to stop (SIGTERM), then kills it (SIGKILL) if it has not within `graceMs`; answers whether it is gone. */
export async function stopProcess(pid: number, graceMs = 10_000): Promise<boolean> {
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(pid, name);
    } catch {
      // Gone already, or not ours to signal: the check below says which.
    }
  };
  signal('SIGTERM');
  if (await gone(pid, graceMs)) return true;
  signal('SIGKILL');
  return gone(pid, 5_000);
}
