/**
 * The README's worked example and nightly recipe, taken from README.md itself (the blocks
 * marked `<!-- readme-test: ... -->`: the worked example, the nightly recipe, the endorsement) and run by bash as a user pastes them, against a
 * service of this test's own on a free port: they cannot drift from what the service does.
 * Every `#` line in a block is what the line above it prints; each must come out, in order.
 * Then `npm run demo` walks the same calls against the same service.
 *
 * The service's clock is set, so that no run depends on the day it runs: the whole walk on a
 * Saturday, the worked example again on a Sunday and on Christmas Day (a federal holiday), the
 * days a Declaration waits for the next business day to print.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectedLine, missingExpectedLine, readmeBlock } from '../../infra/rehearsal/readme-blocks.js';
import { clock } from '../../shared/platform/clock.js';
import { startTestService, type TestService } from '../support/service.js';
import { runCommand } from '../support/processes.js';

const run = runCommand;

const SATURDAY = '2026-11-28';
const SUNDAY = '2026-11-29';
const CHRISTMAS = '2026-12-25';

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

let service: TestService;
let env: Record<string, string>;

beforeAll(async () => {
  clock.startAt(SATURDAY);
  // The nightly recipe needs the queue consumers, as under `npm start`.
  service = await startTestService({ consumers: true });
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
});

describe('README.md', () => {
  it('answers GET / as the README shows', async () => {
    const home = readmeBlock('home');
    const result = await run('bash', ['-e', '-o', 'pipefail', '-c', home], env);
    expect(result.code, result.stderr).toBe(0);
    expectInOrder(result.stdout, home);
  }, 60_000);

  it('runs the worked example, the nightly recipe, the endorsement and the renewals as written, printing what the README shows', async () => {
    const worked = readmeBlock('worked-example');
    const nightly = readmeBlock('nightly');
    const endorsement = readmeBlock('endorsement');
    const renewal = readmeBlock('renewal');
    const blocks = `${worked}\n${nightly}\n${endorsement}\n${renewal}`;
    expect(blocks).not.toMatch(/<[a-z_ ]+>/);
    const result = await run('bash', ['-e', '-o', 'pipefail', '-c', blocks], env);
    expect(result.code, result.stderr).toBe(0);
    expectInOrder(result.stdout, blocks);
    expect(result.stdout).toContain('826.62 851.62');
    // Issued on Saturday, the Declaration prints on Monday.
    expect(result.stdout).toContain('Declaration - 10-2026-1 tbd 2026-11-30');
    expect(nightlyLinesLeftOut(result.stdout, blocks)).toEqual([]);
  }, 240_000);

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
