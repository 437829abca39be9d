/**
 * A cold start builds no zod schema (issue 35): every entry file and consumer gives the factory the
 * function that builds its schema, and areas build theirs on first use, so importing a function's
 * module calls none of zod's schema builders. Counted here by wrapping zod/mini's builders; the
 * description (`handler.operation.input`) still gets every operation's schema.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { listOperationRoutes } from '../../infra/routes.js';

const built: string[] = [];

vi.mock('zod/mini', async (importOriginal) => {
  const real = (await importOriginal()) as Record<string, unknown>;
  const counted: Record<string, unknown> = { ...real };
  // The builders are the lower-case functions (object, string, pipe, ...); classes and namespaces stay as they are.
  for (const [name, value] of Object.entries(real)) {
    if (typeof value === 'function' && /^[a-z]/.test(name)) {
      counted[name] = (...args: unknown[]) => {
        built.push(name);
        return (value as (...args: unknown[]) => unknown)(...args);
      };
    }
  }
  return counted;
});

/** Modules that still build their messages' schemas when they load: none now; the list may only shrink. */
const STILL_BUILT_AT_LOAD: string[] = [];

const workerFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? workerFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : []));

describe('a cold start builds no schema', () => {
  it('imports every function without building a zod schema, and builds each operation schema when it is first read', { timeout: 120_000 }, async () => {
    // The modules that build at load are imported first, so what they build is not counted against the functions.
    for (const module of STILL_BUILT_AT_LOAD) await import(join(process.cwd(), module));
    built.length = 0;
    const routes = listOperationRoutes();
    const handlers: Array<{ operation: { name: string; input: unknown } }> = [];
    for (const route of routes) handlers.push((await import(route.entry)).handler);
    for (const worker of workerFiles('events')) await import(join(process.cwd(), worker));
    expect(built).toEqual([]);

    for (const handler of handlers) expect(handler.operation.input, handler.operation.name).toBeTypeOf('object');
    expect(built.length).toBeGreaterThan(routes.length);
  });
});
