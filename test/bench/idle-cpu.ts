/**
 * What the local runtime costs while nothing happens: the whole service (`npm start`'s, every
 * consumer and pipe running) is started, left 10 s to settle, then the CPU its node process and
 * its DynamoDB Local (Java) use over `IDLE_SECONDS` (default 30) is read from /proc, as a share
 * of one core.
 *
 *   npx tsx test/bench/idle-cpu.ts
 */
import { readdirSync, readFileSync } from 'node:fs';
import { newToken } from '../../shared/auth/secrets.js';

process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
const { startLocalService } = await import('../../infra/local/service.js');

const seconds = Number(process.env.IDLE_SECONDS ?? 30);
const ticks = 100; // USER_HZ
/** utime + stime of a process, in seconds. */
const cpuOf = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / ticks;
};
const parentOf = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
/** Every process descended from this one. */
const descendants = (): number[] => {
  const all = readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number);
  const mine = new Set([process.pid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const pid of all) {
      try {
        if (!mine.has(pid) && mine.has(parentOf(pid))) (mine.add(pid), (grew = true));
      } catch {
        // gone meanwhile
      }
    }
  }
  mine.delete(process.pid);
  return [...mine];
};

const service = await startLocalService({ port: 0, administratorApiKey: newToken('ias') });
try {
  await new Promise((resolve) => setTimeout(resolve, 10_000));
  const children = descendants();
  const before = { node: process.cpuUsage(), children: children.map(cpuOf) };
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const nodeUsage = process.cpuUsage(before.node);
  const node = (nodeUsage.user + nodeUsage.system) / 1e6;
  const stores = children.map(cpuOf).reduce((sum, value, index) => sum + value - before.children[index], 0);
  const share = (cpu: number) => `${((cpu / seconds) * 100).toFixed(1)}% of a core`;
  console.log(`idle for ${seconds} s: node ${share(node)}, embedded stores (DynamoDB Local, ${children.length} processes) ${share(stores)}, together ${share(node + stores)}`);
} finally {
  await service.stop();
}
process.exit(0);
