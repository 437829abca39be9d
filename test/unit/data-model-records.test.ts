import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DATA_MODEL, withDeclaredTables } from '../../infra/docs/declared-records.js';

describe('docs/data-model.md', () => {
  it('carries the declared records exactly as the code declares them (run `npm run docs:records` when this fails)', () => {
    const doc = readFileSync(DATA_MODEL, 'utf8');
    expect(doc).toBe(withDeclaredTables(doc));
  });

  it('notices a declared table edited by hand', () => {
    const doc = readFileSync(DATA_MODEL, 'utf8').replace('| ClaimExposure |', '| ClaimExposures |');
    expect(withDeclaredTables(doc)).not.toBe(doc);
  });
});
