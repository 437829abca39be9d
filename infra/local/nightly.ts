/**
 * `npm run nightly -- <job> <YYYY-MM-DD> [--memory]`: runs one nightly job for one day on the
 * local platform, start to finish: the embedded stores (data under .data/ as `npm start`
 * keeps it; stop `npm start` first), the job's planner (events/schedules/nightly-<job>.ts),
 * then the queue consumers until every batch it fanned out is done and every document its
 * decisions requested is rendered.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { newToken } from '../../shared/auth/secrets.js';
import { getNightlyRun } from '../../shared/billing/store.js';
import { pendingDeliverableRequests } from '../../shared/documents/request-store.js';
import { startLocalService } from './service.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const args = process.argv.slice(2).filter((arg) => arg !== '--');
const memory = args.includes('--memory');
const [job, date] = args.filter((arg) => !arg.startsWith('--'));
const plannerFile = join(root, 'events', 'schedules', `nightly-${job}.ts`);
if (!job || !date || !/^\d{4}-\d{2}-\d{2}$/.test(date) || !existsSync(plannerFile)) {
  console.error('usage: npm run nightly -- <job> <YYYY-MM-DD> [--memory]   (jobs: the files events/schedules/nightly-<job>.ts)');
  process.exit(2);
}
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const dataDir = memory ? undefined : join(root, '.data');
const keyFile = dataDir ? join(dataDir, 'admin-api-key') : undefined;
const administratorApiKey = process.env.BOOTSTRAP_API_KEY ?? (keyFile && existsSync(keyFile) ? readFileSync(keyFile, 'utf8').trim() : newToken('ias'));

const service = await startLocalService({ port: 0, dataDir, administratorApiKey });
const started = Date.now();
try {
  const planner = (await import(pathToFileURL(plannerFile).href)) as { handler: (event: { date: string }) => Promise<{ runId: string; batches: number; accounts: number }> };
  const run = await planner.handler({ date });
  console.log(`nightly ${job} ${date}: ${run.accounts} accounts in ${run.batches} batches (run ${run.runId})`);
  for (;;) {
    const progress = await getNightlyRun(job, date, run.runId);
    if (progress && progress.batchesDone >= progress.batches) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  // The notices the decisions requested are rendered by the documents consumer: wait for them too.
  const deadline = Date.now() + 10 * 60_000;
  while ((await pendingDeliverableRequests(1)).length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
  console.log(`nightly ${job} ${date}: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} finally {
  await service.stop();
}
process.exit(0);
