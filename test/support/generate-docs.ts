/**
 * `npm run docs:generate`: rewrites every generated block of the docs (test/support/doc-blocks.ts)
 * from the code, and says which changed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CodeReadings, docsWithBlocks, regenerate } from './doc-blocks.js';
import { ROOT } from './docs-claims.js';

const readings = new CodeReadings();
for (const doc of docsWithBlocks()) {
  const path = join(ROOT, doc);
  const { text, changed } = await regenerate(readFileSync(path, 'utf8'), readings);
  if (changed.length === 0) {
    console.log(`${doc}: up to date`);
    continue;
  }
  writeFileSync(path, text);
  console.log(`${doc}: rewrote ${changed.map((block) => block.marker.replace(/^<!-- generated:| -->$/g, '')).join('; ')}`);
}
