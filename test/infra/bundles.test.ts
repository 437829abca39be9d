import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { FunctionBundles } from '../../infra/bundles.js';
import { FIXTURES } from './helpers.js';

const READ = join(FIXTURES, 'functions/v2/fixture/read_thing.ts');
const WRITE = join(FIXTURES, 'functions/v2/fixture/write_thing.ts');
const JOB = join(FIXTURES, 'events/schedules/nightly_billing.ts');

const bundles = new FunctionBundles([READ, WRITE, JOB]);
afterAll(() => bundles.dispose());

describe('bundling all functions in one esbuild run', () => {
  it('gives each function a minified ESM index.mjs with a source map, plus only the chunks it imports', () => {
    const read = bundles.directoryFor(READ);
    const job = bundles.directoryFor(JOB);
    expect(read).not.toBe(job);
    for (const dir of [read, job]) {
      const code = readFileSync(join(dir, 'index.mjs'), 'utf8');
      expect(code).toMatch(/sourceMappingURL=index\.mjs\.map\s*$/);
      expect(existsSync(join(dir, 'index.mjs.map'))).toBe(true);
      for (const chunk of readdirSync(join(dir, 'chunks')).filter((file) => file.endsWith('.mjs'))) {
        expect(existsSync(join(dir, 'chunks', `${chunk}.map`))).toBe(true);
      }
    }
    // The job reaches none of the operation factory (nor the SDK): it carries none of that code.
    const size = (dir: string) =>
      readdirSync(join(dir, 'chunks'))
        .filter((file) => file.endsWith('.mjs'))
        .reduce((total, file) => total + statSync(join(dir, 'chunks', file)).size, 0);
    expect(size(read)).toBeGreaterThan(100_000);
    expect(size(job)).toBeLessThan(5_000);
  }, 120_000);

  it('bundles the AWS SDK and defines require, so a bundle loads with nothing but Node', async () => {
    const dir = bundles.directoryFor(WRITE);
    const files = [join(dir, 'index.mjs'), ...readdirSync(join(dir, 'chunks')).filter((f) => f.endsWith('.mjs')).map((f) => join(dir, 'chunks', f))];
    const code = files.map((file) => readFileSync(file, 'utf8')).join('\n');
    expect(code).not.toMatch(/from\s*"@aws-sdk\//);
    expect(code).toContain('__createRequire(import.meta.url)');
    const module = await import(pathToFileURL(join(dir, 'index.mjs')).href);
    expect(typeof module.handler).toBe('function');
    expect(module.handler.operation.name).toBe('write_thing');
  }, 120_000);

  it('refuses an entry it was not given', () => {
    expect(() => bundles.directoryFor(join(FIXTURES, 'nope.ts'))).toThrow(/not registered/);
  });
});
