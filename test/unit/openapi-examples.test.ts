/**
 * /docs offers the README's worked example as the bodies of its calls ("Try it out" after
 * Authorize makes them): the two stay in step, call by call.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { workedExampleCalls } from '../../infra/openapi.js';

/** The worked example's calls as the README block makes them: `<day N>` and `<VAR>` where the shell fills a value in. */
function readmeCalls(): Map<string, unknown> {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const start = readme.indexOf('<!-- readme-test: worked-example');
  const block = readme.slice(readme.indexOf('```sh', start), readme.indexOf('```\n', readme.indexOf('```sh', start) + 5));
  const filled = block.replace(/'\$\(day (\d+)\)'/g, '<day $1>').replace(/'\$([A-Z_]+)'/g, '<$1>');
  const calls = new Map<string, unknown>();
  for (const call of filled.matchAll(/\bcall (\/api\/\S+) '([^']*)'/g)) if (!calls.has(call[1])) calls.set(call[1], JSON.parse(call[2]));
  return calls;
}

/**
 * Where the README has a value, /docs has the same; where the shell fills one in, /docs has one
 * of its kind. /docs may say more (a field the README leaves to its default), never less.
 */
function differences(readme: unknown, docs: unknown, at = ''): string[] {
  if (typeof readme === 'string' && /^<.+>$/.test(readme)) return typeof docs === 'string' && docs.length > 0 ? [] : [`${at}: ${JSON.stringify(docs)} for ${readme}`];
  if (Array.isArray(readme)) {
    if (!Array.isArray(docs) || docs.length !== readme.length) return [`${at}: ${JSON.stringify(docs)} for ${JSON.stringify(readme)}`];
    return readme.flatMap((value, index) => differences(value, docs[index], `${at}.${index}`));
  }
  if (readme && typeof readme === 'object') {
    if (!docs || typeof docs !== 'object') return [`${at}: ${JSON.stringify(docs)} for an object`];
    return Object.keys(readme).flatMap((key) => differences((readme as Record<string, unknown>)[key], (docs as Record<string, unknown>)[key], `${at}.${key}`));
  }
  return readme === docs ? [] : [`${at}: ${JSON.stringify(docs)} for ${JSON.stringify(readme)}`];
}

describe("/docs' examples of the worked example", () => {
  it('are the calls of the README block, dated from the day given', () => {
    const readme = readmeCalls();
    const docs = workedExampleCalls('2026-11-28');
    expect(readme.size).toBeGreaterThanOrEqual(8);
    const found: string[] = [];
    for (const [path, body] of readme) {
      if (path === '/api/v2/utils/get_release_info') continue;
      if (!(path in docs)) found.push(`${path}: no example`);
      else found.push(...differences(body, docs[path], path));
    }
    expect(found).toEqual([]);
    expect(docs['/api/v2/policies/create_quote_extended']).toMatchObject({ quote_info: { effective_date: '2026-11-28' } });
    expect(docs['/api/v2/policies/cancel_policy']).toMatchObject({ cancel_date: '2026-12-28' });
  });
});
