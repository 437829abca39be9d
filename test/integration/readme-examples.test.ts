/**
 * The README's worked example and nightly recipe, taken from README.md itself (the blocks
 * marked `<!-- readme-test: ... -->`: the worked example, the nightly recipe, the endorsement) and run by bash as a user pastes them, against a
 * service of this test's own on a free port: they cannot drift from what the service does.
 * Every `#` line in a block is what the line above it prints; each must come out, in order.
 * Then `npm run demo` walks the same calls against the same service.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';
import { PROJECT_ROOT as ROOT, runCommand } from '../support/processes.js';

/** The ```sh block after the `<!-- readme-test: name` marker. */
function readmeBlock(name: string): string {
  const readme = readFileSync(`${ROOT}README.md`, 'utf8');
  const marker = readme.indexOf(`<!-- readme-test: ${name}`);
  expect(marker, `README.md has no block marked readme-test: ${name}`).toBeGreaterThan(-1);
  const start = readme.indexOf('```sh\n', marker) + '```sh\n'.length;
  return readme.slice(start, readme.indexOf('\n```', start));
}

/**
 * A `#` line as a pattern: dates, years and the run's port vary with the day and the machine,
 * `...` stands for anything, and a trailing `(explanation)` after two spaces is prose.
 */
function expectedLine(comment: string): RegExp {
  const text = comment.replace(/^#\s?/, '').replace(/\s{2,}\(.*\)$/, '').trim();
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = escaped
    .replace(/\\\.\\\.\\\./g, '.*')
    .replace(/\d{4}-\d{2}-\d{2}/g, '\\d{4}-\\d{2}-\\d{2}')
    .replace(/10-2026-/g, '10-\\d{4}-')
    .replace(/localhost:3000/g, 'localhost:\\d+')
    .replace(/in \d+\\\.\d+ s/g, 'in [\\d.]+ s');
  return new RegExp(`^${pattern}$`);
}

const run = runCommand;

/** Each expected line matches an output line, in order (other output lines may come between). */
function expectInOrder(output: string, block: string) {
  const lines = output.split('\n').map((line) => line.trim());
  let cursor = 0;
  for (const comment of block.split('\n').filter((line) => line.trim().startsWith('#'))) {
    const pattern = expectedLine(comment.trim());
    const found = lines.findIndex((line, index) => index >= cursor && pattern.test(line));
    expect(found, `README line "${comment.trim()}" did not come out (after line ${cursor}) in:\n${output}`).toBeGreaterThanOrEqual(0);
    cursor = found + 1;
  }
}

let service: TestService;
let env: Record<string, string>;

beforeAll(async () => {
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
  }, 240_000);

  it('npm run demo walks quote, bind, issue, pay, history, print queue, search, an endorsement and cancel with their figures', async () => {
    const result = await run('npx', ['tsx', 'infra/local/demo.ts'], env);
    expect(result.code, result.stderr).toBe(0);
    for (const step of ['quote', 'bind', 'issue', 'pay', 'account history', 'print queue', 'search', 'endorsement: open', 'endorsement: issue', 'cancel']) {
      expect(result.stdout).toMatch(new RegExp(`^\\d+\\. ${step}: POST /api/`, 'm'));
    }
    expect(result.stdout).toMatch(/premium 826\.62, total with fees 851\.62/);
    expect(result.stdout).toMatch(/status Active/);
    expect(result.stdout).toMatch(/Declaration - 10-\d{4}-\d+, to print on/);
    expect(result.stdout).toMatch(/annual 826\.62 → 982\.55/);
    // Cancelled on day 30, before the endorsement of day 100 came into force: all of its additional premium returns with the rest, less the 100.00 minimum earned.
    const additional = Number(/additional premium (\d+\.\d\d) \(nothing written\)/.exec(result.stdout)![1]);
    expect(result.stdout).toContain(`(Insured's Request); return premium ${(726.62 + additional).toFixed(2)}`);
  }, 120_000);
});
