/**
 * README.md's walk as a newcomer pastes it: every ```sh block of README.md in the order a reader
 * meets them (each marked `<!-- readme-test: name -->`; a block marked `not run` says why: it starts
 * the service, restarts it, or needs an AWS account), pasted into one bash shell at the root of a
 * fresh clone whose `npm start` is this test's service: the clone's `.data/` holds its key and its
 * address (SERVICE_DATA_DIR points the local tools there, since they resolve the project through the
 * clone's links), PORT its port, and it runs with the OAuth client the README restarts it with. Every
 * `#` line in a block is what the line above it prints; each must come out, in order.
 *
 * The walk runs twice, each time on a fresh service, so that no block depends on the day it is
 * pasted: on a Saturday (a Declaration issued that day prints on Monday) and on today's date. On the
 * Saturday's service the worked example runs again on a Sunday and on Christmas Day (a federal
 * holiday), the days a Declaration waits for the next business day to print, and `npm run demo` walks
 * the same calls.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectedLine, missingExpectedLine, readmeBlock, readmeShellBlocks } from '../../infra/rehearsal/readme-blocks.js';
import { claimDataDir, type DataDirClaim } from '../../infra/local/data-lock.js';
import { clock } from '../../shared/platform/clock.js';
import { startTestService, type TestService } from '../support/service.js';
import { PROJECT_ROOT, runCommand } from '../support/processes.js';

const run = runCommand;

const SATURDAY = '2026-11-28';
const SUNDAY = '2026-11-29';
const CHRISTMAS = '2026-12-25';

/** The client the README restarts `npm start` with (Getting a token). */
const README_OAUTH_CLIENT = { clientId: 'portal', clientSecret: 'change-me' };

/** The lines `npm run nightly` printed that no `#` line of the blocks shows: the README leaves none out. */
function nightlyLinesLeftOut(output: string, blocks: string): string[] {
  const shown = blocks.split('\n').filter((line) => line.trim().startsWith('#')).map((line) => expectedLine(line.trim()));
  return output
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /^nightly (billing|renewals) \d{4}-|^\d+-\d{4}-\d+: /.test(line))
    .filter((line) => !shown.some((pattern) => pattern.test(line)));
}

/** Each expected line matches an output line, in order (other output lines may come between). */
function expectInOrder(output: string, block: string) {
  const missing = missingExpectedLine(output, block);
  expect(missing, missing && `README line "${missing.comment}" did not come out (after line ${missing.after}) in:\n${output}`).toBeUndefined();
}

const scratch: string[] = [];
const claims: DataDirClaim[] = [];

/** A fresh clone as `npm start` leaves it running: the project's files (linked), and a `.data/` naming the service and holding its key. */
function freshCloneServedBy(service: TestService): string {
  const clone = mkdtempSync(join(tmpdir(), 'ias-readme-'));
  scratch.push(clone);
  for (const entry of readdirSync(PROJECT_ROOT)) {
    if (['.data', '.git', 'my-product', 'cdk.out', 'coverage'].includes(entry)) continue;
    symlinkSync(join(PROJECT_ROOT, entry), join(clone, entry));
  }
  const dataDir = join(clone, '.data');
  mkdirSync(dataDir);
  const claim = claimDataDir(dataDir, { command: 'npm start', port: service.port });
  claim.announce(service.url, service.port);
  claims.push(claim);
  writeFileSync(join(dataDir, 'admin-api-key'), `${service.administratorApiKey}\n`, { mode: 0o600 });
  return clone;
}

/** The README's walk, every block that runs in README order, in one shell at the root of `clone`. */
async function walkTheReadme(clone: string, port: number) {
  const blocks = readmeShellBlocks().filter((block) => block.runs);
  // What a reader pastes, not what a block's trailing comments say: no placeholder is left to fill in.
  const pasted = blocks.map((block) => block.text.split('\n').filter((line) => !line.trim().startsWith('#')).map((line) => line.replace(/\s+#\s.*$/, '')).join('\n'));
  expect(pasted.join('\n')).not.toMatch(/<[a-z_ ]+>/);
  const script = blocks.map((block) => `echo; echo "=== README block ${block.name} (README.md:${block.line})"\n${block.text}`).join('\n');
  const result = await run('bash', ['-e', '-o', 'pipefail', '-c', script], { PORT: String(port), SERVICE_DATA_DIR: join(clone, '.data'), POWERTOOLS_LOG_LEVEL: 'SILENT' }, clone);
  const text = blocks.map((block) => block.text).join('\n');
  expect(result.code, `${result.stderr}\n${result.stdout.slice(-3000)}`).toBe(0);
  expectInOrder(result.stdout, text);
  expect(nightlyLinesLeftOut(result.stdout, text)).toEqual([]);
  return result.stdout;
}

let service: TestService;
let env: Record<string, string>;

const releaseTagBefore = process.env.RELEASE_TAG;

beforeAll(async () => {
  clock.startAt(SATURDAY);
  // As `npm start` names its release (infra/local/main.ts), which get_release_info answers.
  process.env.RELEASE_TAG = `v${(JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version}-local`;
  // The nightly recipe needs the queue consumers, as under `npm start`.
  service = await startTestService({ consumers: true, oauthClient: README_OAUTH_CLIENT });
  env = {
    PORT: String(service.port),
    KEY: service.administratorApiKey,
    // How the local tools (npm run nightly, npm run demo) find this service instead of .data/service.json.
    API_URL: service.url,
    BOOTSTRAP_API_KEY: service.administratorApiKey,
    POWERTOOLS_LOG_LEVEL: 'SILENT',
  };
});

afterAll(async () => {
  await service?.stop();
  clock.startAt(undefined);
  if (releaseTagBefore === undefined) delete process.env.RELEASE_TAG;
  else process.env.RELEASE_TAG = releaseTagBefore;
  for (const claim of claims) claim.release();
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

describe('README.md', () => {
  it('marks every shell block: run by the walk, or not run saying why', () => {
    const blocks = readmeShellBlocks();
    expect(blocks.filter((block) => !block.name).map((block) => `README.md:${block.line}`)).toEqual([]);
    expect(blocks.filter((block) => block.runs).map((block) => block.name)).toEqual(expect.arrayContaining(['home', 'first-call', 'worked-example', 'nightly', 'endorsement', 'renewal']));
    const names = blocks.filter((block) => block.runs).map((block) => block.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('runs every block as written, in order, on a fresh clone on a Saturday, printing what the README shows', async () => {
    const output = await walkTheReadme(freshCloneServedBy(service), service.port);
    expect(output).toContain('826.62 851.62');
    // Issued on Saturday, the Declaration prints on Monday.
    expect(output).toContain('Declaration - 10-2026-1 tbd 2026-11-30');
  }, 300_000);

  it.each([
    ['a Sunday', SUNDAY, '2026-11-30'],
    ['Christmas Day, a federal holiday on a Friday', CHRISTMAS, '2026-12-28'],
  ])('runs the worked example as written on %s, its Declaration waiting for the next business day', async (_day, today, printDate) => {
    clock.startAt(today);
    try {
      const worked = readmeBlock('worked-example');
      const result = await run('bash', ['-e', '-o', 'pipefail', '-c', worked], env);
      expect(result.code, result.stderr).toBe(0);
      // The walk above numbered policies already: the numbers count on.
      const missing = missingExpectedLine(result.stdout, worked, { anyPolicySequence: true });
      expect(missing, missing && `README line "${missing.comment}" did not come out (after line ${missing.after}) in:\n${result.stdout}`).toBeUndefined();
      expect(result.stdout).toMatch(new RegExp(`^Declaration - 10-2026-\\d+ tbd ${printDate}$`, 'm'));
    } finally {
      clock.startAt(SATURDAY);
    }
  }, 120_000);

  it('npm run demo walks quote, bind, issue, pay, history, print queue, search, an endorsement and cancel with their figures', async () => {
    const result = await run('npx', ['tsx', 'infra/local/demo.ts'], env);
    expect(result.code, result.stderr).toBe(0);
    for (const step of ['quote', 'bind', 'issue', 'pay', 'account history', 'print queue', 'search', 'endorsement: open', 'endorsement: issue', 'cancel', 'account after the cancel']) {
      expect(result.stdout).toMatch(new RegExp(`^\\d+\\. ${step}: POST /api/`, 'm'));
    }
    expect(result.stdout).toMatch(/premium 826\.62, total with fees 851\.62/);
    expect(result.stdout).toMatch(/status Active/);
    expect(result.stdout).toMatch(/Declaration - 10-\d{4}-\d+, to print on/);
    expect(result.stdout).toMatch(/annual 826\.62 → 982\.55/);
    // Cancelled on day 30, before the endorsement of day 100 came into force: all of its additional premium returns with the rest, less the 100.00 minimum earned.
    const additional = Number(/additional premium (\d+\.\d\d) \(nothing written\)/.exec(result.stdout)![1]);
    // Each revision's items are returned apart, each rounded to the cent (issue 32), so the sum may differ from 726.62 + additional by a cent.
    const returned = Number(/\(Insured's Request\); return premium (\d+\.\d\d)/.exec(result.stdout)![1]);
    expect(Math.abs(Math.round(returned * 100) - Math.round((726.62 + additional) * 100))).toBeLessThanOrEqual(1);
    // The account is credited what the message says (issue 44): paid 851.62 of 851.62 + the additional premium billed, less the return premium.
    const [, amount, balance] = /account after the cancel: .*\n\s+→ Return Premium (-?\d+\.\d\d) \(balance (-?\d+\.\d\d)\); Cancellation/.exec(result.stdout)!;
    expect(Math.round(Number(amount) * 100)).toBe(-Math.round(returned * 100));
    expect(Math.round(Number(balance) * 100)).toBe(Math.round(additional * 100) - Math.round(returned * 100));
  }, 120_000);
});

describe("README.md on today's date", () => {
  beforeAll(async () => {
    // A fresh service on the wall clock: the blocks count their dates from its today.
    await service.stop();
    clock.startAt(undefined);
    service = await startTestService({ consumers: true, oauthClient: README_OAUTH_CLIENT });
  });

  it('runs every block as written, in order, on a fresh clone, printing what the README shows', async () => {
    const output = await walkTheReadme(freshCloneServedBy(service), service.port);
    expect(output).toContain('826.62 851.62');
  }, 300_000);
});
