/**
 * Beside a detached DynamoDB Local (`npm start`): the start that owns it may die by kill -9, which
 * no handler of its own survives, and the database, in a process group of its own, would run on
 * until the next start stops it. This small process, in a group of its own too, watches both:
 * once the start is gone (or a zombie its parent has not reaped) it stops the database; once the
 * database is gone it has nothing to watch. Run as `node --import tsx store-watchdog.ts <start pid> <database pid>`.
 */
import { isAlive } from './processes.js';

const [startPid, databasePid] = process.argv.slice(2).map(Number);
const POLL_MS = 500;

function stopDatabase(): void {
  try {
    process.kill(databasePid, 'SIGTERM');
  } catch {
    return;
  }
  // As a start's own stop does: a database that does not stop on SIGTERM in 3 s is killed.
  setTimeout(() => {
    if (isAlive(databasePid)) process.kill(databasePid, 'SIGKILL');
    process.exit(0);
  }, 3000);
}

if (!Number.isInteger(startPid) || !Number.isInteger(databasePid)) process.exit(2);
const timer = setInterval(() => {
  if (!isAlive(databasePid)) process.exit(0);
  if (!isAlive(startPid)) {
    clearInterval(timer);
    stopDatabase();
  }
}, POLL_MS);
