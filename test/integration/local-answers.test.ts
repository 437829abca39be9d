/**
 * `npm start` as a user runs it (a child process, `--memory`, its clock set to a Saturday by
 * SERVICE_CLOCK), and the answers that must say what happened or what to do: `npm run
 * print-job`'s report, a 401's hint at where a local run's key is (never given by the API as
 * AWS runs it), a 404's nearest operation, and a Ctrl-C that stops everything quietly.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalApi } from '../../infra/local/server.js';
import { newToken } from '../../shared/auth/secrets.js';
import { runCommand, PROJECT_ROOT } from '../support/processes.js';
import type { ApiAnswer, TestService } from '../support/service.js';
import { issueWorkedExample } from '../support/worked-example.js';

const SATURDAY = '2026-11-28';
const KEY = newToken('ias');

let child: ChildProcess;
let url: string;
let stdout = '';
let stderr = '';
let exited: Promise<number | null>;

async function call(path: string, body: Record<string, unknown> = {}, apiKey: string = KEY): Promise<ApiAnswer> {
  const response = await fetch(`${url}${path}`, { method: 'POST', body: JSON.stringify({ api_key: apiKey, ...body }) });
  return { status: response.status, body: await response.json(), headers: response.headers };
}

/** `npm run print-job [-- date]` against the child service, as its npm script runs it. */
const printJob = (date?: string, key = KEY) =>
  runCommand('npx', ['tsx', 'infra/local/run-schedule.ts', 'nightly_print', ...(date ? [date] : [])], { API_URL: url, BOOTSTRAP_API_KEY: key });

beforeAll(async () => {
  // Its own process group, as a terminal runs it: a Ctrl-C reaches every process of the group.
  // Node with tsx's loader, as `npm start` runs it (npm's own wrapper adds nothing but its exit status):
  // one process, so nothing stands between the terminal's Ctrl-C and the service's own stop.
  child = spawn(process.execPath, ['--import', 'tsx', 'infra/local/main.ts', '--memory'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, PORT: '0', BOOTSTRAP_API_KEY: KEY, SERVICE_CLOCK: SATURDAY, POWERTOOLS_LOG_LEVEL: 'SILENT' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  url = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const listening = /listening on (http:\/\/localhost:\d+)/.exec(stdout);
      if (listening) {
        clearInterval(timer);
        resolve(listening[1]);
      } else if (child.exitCode !== null) {
        clearInterval(timer);
        reject(new Error(`npm start exited ${child.exitCode}: ${stderr}`));
      }
    }, 100);
  });
}, 120_000);

afterAll(async () => {
  if (child?.exitCode === null && child.signalCode === null) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // The group is gone already.
    }
    await exited;
  }
});

describe('npm start with SERVICE_CLOCK', () => {
  it("says when its clock starts, and the service's today is that day", async () => {
    expect(stdout).toContain(`the service's clock started at ${SATURDAY}T12:00:00.000Z (SERVICE_CLOCK)`);
    expect((await call('/api/v2/utils/get_release_info')).body.data.today).toBe(SATURDAY);
  });
});

describe('npm run print-job', () => {
  it('says what it batched, and when nothing, why and which print date has files', async () => {
    const empty = await printJob();
    expect(empty.code, empty.stderr).toBe(0);
    expect(empty.stdout.trim()).toBe(`print run ${SATURDAY}: nothing to print on that date; no file is waiting to print on a later date either`);

    // Issued on a Saturday: its Declaration prints on Monday.
    const policy = await issueWorkedExample({ call } as unknown as TestService, 'Sam Saturday', SATURDAY);
    for (let tries = 0; tries < 100; tries += 1) {
      const files = (await call('/api/v1/printing/getToBePrinted', { json_dict: { to_date: '2026-12-05' } })).body.data.files as Array<{ policy_number: string }>;
      if (files.some((file) => file.policy_number === policy.policyNumber)) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const saturday = await printJob();
    expect(saturday.stdout.trim()).toBe(`print run ${SATURDAY}: nothing to print on that date; the next print date with files waiting is 2026-11-30 (npm run print-job -- 2026-11-30)`);

    const monday = await printJob('2026-11-30');
    expect(monday.code, monday.stderr).toBe(0);
    expect(monday.stdout.trim()).toBe('print run 2026-11-30: 1 file in 1 mailing batch (one envelope per recipient and policy)');
  }, 120_000);

  it('refused the key it was given: says which key it sent and where a local run keeps its own', async () => {
    const result = await printJob(undefined, 'ias_wrong');
    expect(result.code).toBe(1);
    const lines = result.stderr.split('\n').filter((line) => line.trim() && !line.startsWith('npm warn'));
    expect(lines).toEqual([
      `${url} refused the administrator key of BOOTSTRAP_API_KEY: a service started with \`--memory\` has the key it printed at start (give it as BOOTSTRAP_API_KEY=<that key>), one on .data/ the key in .data/admin-api-key`,
    ]);
  }, 60_000);
});

describe('answers of the local runtime', () => {
  it('a 401 says where a local run keeps its key', async () => {
    const refused = await call('/api/v2/utils/get_release_info', {}, 'ias_wrong');
    expect(refused.status).toBe(401);
    expect(refused.body.messages).toEqual([
      "A valid API key, bearer token or session is required. A local run's administrator key is in .data/admin-api-key; one started with --memory has the key it printed at start (or BOOTSTRAP_API_KEY, when that was set)",
    ]);
    const v1 = await call('/api/v1/printing/getToBePrinted', {}, 'ias_wrong');
    expect(v1.body.message).toEqual([expect.stringMatching(/\. A local run's administrator key is in \.data\/admin-api-key/)]);
  });

  it('a 404 names the nearest operation and where every operation is listed', async () => {
    const slip = await call('/api/v2/policies/create_qoute');
    expect(slip.status).toBe(404);
    expect(slip.body.messages).toEqual(['No operation answers on /api/v2/policies/create_qoute: did you mean /api/v2/policies/create_quote? Every operation is listed at /docs']);
    const far = await call('/api/v2/policies/zzzzzzzzzzzzzzzzzzzzzzzzzzzz');
    expect(far.body.messages).toEqual(['No operation answers on /api/v2/policies/zzzzzzzzzzzzzzzzzzzzzzzzzzzz Every operation is listed at /docs']);
  });

  it('the API as AWS runs it (the rehearsal serves it so) gives no local hint', async () => {
    const refusal = { statusCode: 401, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ success: false, messages: ['A valid API key, bearer token or session is required'], data: null }) };
    const api = await startLocalApi({ port: 0, host: '127.0.0.1', operations: [{ method: 'POST', path: '/api/v2/utils/get_release_info', id: 'v2-utils-get_release_info', load: async () => (async () => refusal) as never }] });
    try {
      const refused = await fetch(`${api.url}/api/v2/utils/get_release_info`, { method: 'POST', body: '{}' });
      expect(refused.status).toBe(401);
      expect(await refused.json()).toEqual(JSON.parse(refusal.body));
      const missing = await fetch(`${api.url}/api/v2/policies/create_qoute`, { method: 'POST', body: '{}' });
      expect(((await missing.json()) as { messages: string[] }).messages).toEqual(['No operation answers on /api/v2/policies/create_qoute']);
    } finally {
      await api.close();
    }
  });
});

describe('Ctrl-C on npm start', () => {
  it('stops the pipes and consumers before the stores, quietly', async () => {
    // Work in flight: a Declaration being requested while the terminal's Ctrl-C reaches every process of the group.
    await issueWorkedExample({ call } as unknown as TestService, 'Cory Ctrl', SATURDAY);
    process.kill(-child.pid!, 'SIGINT');
    const code = await exited;
    expect(stderr.split('\n').filter((line) => line.trim() && !line.startsWith('npm warn'))).toEqual([]);
    expect(code).toBe(0);
  }, 60_000);
});
