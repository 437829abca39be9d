/**
 * The functions run without --enable-source-maps (it costs every cold start the parse of the map);
 * a fault's logged stack is still mapped to the TypeScript source, from the map shipped beside the bundle.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildSync } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { ESBUILD_OPTIONS } from '../../infra/bundles.js';
import { sourceMappedStack, withSourceMappedStack } from '../../shared/platform/stack-traces.js';

const work = mkdtempSync(join(tmpdir(), 'stack-traces-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('a logged fault of a bundled function', () => {
  it('names the source file and line the error was thrown at, read from the map beside the bundle', () => {
    writeFileSync(join(work, 'faulty-rule.ts'), ['export function applyRule(amount: number): number {', '  if (amount < 0) throw new Error(`negative amount`);', '  return amount;', '}', ''].join('\n'));
    buildSync({ ...ESBUILD_OPTIONS, entryPoints: [join(work, 'faulty-rule.ts')], outfile: join(work, 'index.mjs'), absWorkingDir: work, logLevel: 'silent' });
    // Thrown in a process of its own, run as the functions run: without --enable-source-maps.
    const script = `try { (await import(${JSON.stringify(pathToFileURL(join(work, 'index.mjs')).href)})).applyRule(-1); } catch (error) { process.stdout.write(error.stack); }`;
    const stack = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
    expect(stack.split('\n')[1]).toMatch(/index\.mjs:\d+:\d+/);
    const mapped = sourceMappedStack(stack);
    expect(mapped.split('\n')[1]).toMatch(/faulty-rule\.ts:2:\d+/);
    expect(mapped).not.toMatch(/index\.mjs:\d+:\d+/);
    const fault = Object.assign(new Error('negative amount'), { stack });
    expect(withSourceMappedStack(fault).stack).toBe(mapped);
  });

  it('leaves frames without a map beside them as they are', () => {
    const stack = 'Error: x\n    at run (file:///nowhere/index.mjs:1:10)\n    at node:internal/process/task_queues:95:5';
    expect(sourceMappedStack(stack)).toBe(stack);
  });
});
