/**
 * The docs' generated blocks (test/support/doc-blocks.ts) say what the code says: each block
 * between `<!-- generated:<kind> ... -->` and `<!-- /generated -->` is what `npm run docs:generate`
 * would write there now. The lists the code decides (the edges between areas, each move's
 * contributions, which functions bundle what, the code the docs show) cannot drift from it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CodeReadings, docsWithBlocks, generatedBlocks, regenerate } from '../support/doc-blocks.js';
import { ROOT } from '../support/docs-claims.js';

describe('the docs generated from the code', () => {
  it('hold the lists of docs/architecture.md and docs/data-model.md between markers', () => {
    const kinds = generatedBlocks(readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8')).map((block) => block.kind);
    expect(new Set(kinds)).toEqual(new Set(['area-edges', 'move-contributions', 'bundled-by', 'first-use', 'excerpt']));
    expect(generatedBlocks(readFileSync(join(ROOT, 'docs/data-model.md'), 'utf8')).map((block) => block.kind)).toEqual(['idempotency-scopes']);
  });

  it('say what the code says now', { timeout: 180_000 }, async () => {
    const readings = new CodeReadings();
    const stale: string[] = [];
    for (const doc of docsWithBlocks()) {
      const { changed } = await regenerate(readFileSync(join(ROOT, doc), 'utf8'), readings);
      for (const block of changed) stale.push(`${doc}: ${block.marker}`);
    }
    expect(stale, 'These generated blocks differ from what the code says: run `npm run docs:generate` and commit the docs it rewrites').toEqual([]);
  });
});
