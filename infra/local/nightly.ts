/**
 * `npm run nightly -- <job> <YYYY-MM-DD> [--memory]`: runs one nightly job for one day, start
 * to finish, and prints what it decided for each account.
 * - With `npm start` running, through that service (found in .data/service.json, or named by
 *   PORT or API_URL, as a service started with --memory must be): its
 *   `POST /local/schedules/nightly_<job>` plans the run, its own queue consumers decide.
 * - With no service running, on the data of .data/ (claimed for the run, so that no `npm start`
 *   opens it meanwhile) by a service of its own; `--memory`, on a throwaway one. It stops once
 *   every batch is decided and every document the decisions requested is rendered.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { newToken } from '../../shared/auth/index.js';
import type { NightlyAccountDecision } from '../../shared/billing/index.js';
import { getNightlyRun, type NightlyDecision, type NightlyRun } from '../../shared/platform/nightly-runs.js';
import { pendingDeliverableRequests } from '../../shared/documents/request-store.js';
import { claimDataDir, DataDirBusyError, dataDirHolder } from './data-lock.js';
import { DATA_DIR, findRunningService, LocalToolError, postToService, PROJECT_ROOT, runLocalTool } from './running-service.js';

const args = process.argv.slice(2).filter((arg) => arg !== '--');
const memory = args.includes('--memory');
const [job, date] = args.filter((arg) => !arg.startsWith('--'));
const plannerFile = join(PROJECT_ROOT, 'events', 'schedules', `nightly_${job}.ts`);

interface Planned {
  runId: string;
  batches: number;
  accounts: number;
}

/** One line per account or term: what was decided, with its dates (a renewal decision carries its own words). */
function describeDecision(listed: NightlyDecision & { detail?: string }): string {
  if (typeof listed.detail === 'string') return `${listed.policyNumber}: ${listed.detail}`;
  const decided = listed as NightlyAccountDecision;
  if (decided.decision === 'pending') {
    return `${decided.policyNumber}: cancellation pending for non-payment (invoice due ${decided.dueDate ?? '?'} unpaid); cancels on ${decided.cancelDate} unless paid`;
  }
  if (decided.decision === 'rescinded') return `${decided.policyNumber}: pending cancellation rescinded (paid)`;
  return `${decided.policyNumber}: cancelled effective ${decided.cancelDate}`;
}

/** What a job's run looks at, as its first line counts them. */
const what = (job: string) => (job === 'renewals' ? 'terms' : job === 'claim_deadlines' ? 'claims' : 'accounts');

async function waitForRun(read: () => Promise<NightlyRun | undefined>): Promise<NightlyRun> {
  for (;;) {
    const progress = await read();
    if (progress && progress.batchesDone >= progress.batches) return progress;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function report(run: Planned, done: NightlyRun, started: number) {
  // Batches record their decisions in the order they finish: print them in policy-number order, the same each run.
  const decisions = [...(done.decisions ?? [])].sort((a, b) => a.policyNumber.localeCompare(b.policyNumber, 'en', { numeric: true }));
  for (const decided of decisions) console.log(`  ${describeDecision(decided)}`);
  if (done.decisionsUnlisted) console.log(`  ... and ${done.decisionsUnlisted} more decisions`);
  const decided = (done.decisions?.length ?? 0) + (done.decisionsUnlisted ?? 0);
  console.log(`nightly ${job} ${date}: done in ${((Date.now() - started) / 1000).toFixed(1)} s, ${decided} decided, ${run.accounts - decided} unchanged`);
}

/** Through the service `npm start` runs. */
async function throughRunningService(): Promise<void> {
  const service = findRunningService();
  const started = Date.now();
  const planned = await postToService(service, `/local/schedules/nightly_${job}`, { date });
  if (planned.status !== 200 || planned.body?.success !== true) throw new LocalToolError(`The service refused the run: ${JSON.stringify(planned.body)}`);
  const run = planned.body.data as Planned;
  console.log(`nightly ${job} ${date}: ${run.accounts} ${what(job)} in ${run.batches} batches (run ${run.runId}, on ${service.url})`);
  const done = await waitForRun(async () => {
    const answer = await postToService(service, '/local/nightly-runs', { job, date, runId: run.runId });
    return answer.body?.success === true ? (answer.body.data as NightlyRun) : undefined;
  });
  report(run, done, started);
}

/** On a service of its own: .data/ (claimed) or, with --memory, nothing kept. */
async function onOwnService(): Promise<void> {
  const dataDir = memory ? undefined : DATA_DIR;
  let claim: ReturnType<typeof claimDataDir> | undefined;
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    try {
      claim = claimDataDir(dataDir, { command: 'npm run nightly' });
    } catch (error) {
      if (error instanceof DataDirBusyError) throw new LocalToolError(error.message);
      throw error;
    }
  }
  const { startLocalService } = await import('./service.js');
  const { readFileSync } = await import('node:fs');
  const keyFile = dataDir ? join(dataDir, 'admin-api-key') : undefined;
  const administratorApiKey = process.env.BOOTSTRAP_API_KEY ?? (keyFile && existsSync(keyFile) ? readFileSync(keyFile, 'utf8').trim() : newToken('ias'));
  const service = await startLocalService({ port: 0, dataDir, administratorApiKey });
  const started = Date.now();
  try {
    const planner = (await import(pathToFileURL(plannerFile).href)) as { handler: (event: { date: string }) => Promise<Planned> };
    const run = await planner.handler({ date });
    console.log(`nightly ${job} ${date}: ${run.accounts} ${what(job)} in ${run.batches} batches (run ${run.runId})`);
    const done = await waitForRun(() => getNightlyRun(job, date, run.runId));
    // The notices the decisions requested are rendered by the documents consumer: wait for them before stopping it.
    const deadline = Date.now() + 10 * 60_000;
    while ((await pendingDeliverableRequests(1)).length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
    report(run, done, started);
  } finally {
    await service.stop();
    claim?.release();
  }
}

await runLocalTool(async () => {
  if (!job || !date || !/^\d{4}-\d{2}-\d{2}$/.test(date) || !existsSync(plannerFile)) {
    console.error('usage: npm run nightly -- <job> <YYYY-MM-DD> [--memory]   (jobs: the files events/schedules/nightly_<job>.ts)');
    return 2;
  }
  process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  // A service named by PORT or API_URL (one started with --memory leaves no address in .data/) is the one to run on, never .data/ instead.
  const pointedAt = process.env.API_URL ? `API_URL=${process.env.API_URL}` : process.env.PORT ? `PORT=${process.env.PORT}` : undefined;
  if (memory && pointedAt) {
    throw new LocalToolError(`npm run nightly: --memory runs the night on a throwaway service of its own, but ${pointedAt} names a running one: drop --memory to run it there, or unset ${pointedAt.split('=')[0]}`);
  }
  if (!memory && (pointedAt || dataDirHolder(DATA_DIR))) await throughRunningService();
  else await onOwnService();
});
