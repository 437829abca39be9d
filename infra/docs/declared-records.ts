/**
 * The tables of docs/data-model.md that come from the records' declarations (shared/platform/records.ts):
 * each declared area's block between its markers is rewritten from the code, so the doc cannot
 * drift from the keys. `npm run docs:records` rewrites them; test/unit/data-model-records.test.ts
 * fails when a block and the declarations differ.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { recordsTable, type DeclaredRecord } from '../../shared/platform/records.js';
import { CLAIMS_RECORDS } from '../../shared/claims/records.js';

export const DATA_MODEL = fileURLToPath(new URL('../../docs/data-model.md', import.meta.url));

/** Each declared area: the name of its block and its records. */
export const DECLARED_AREAS: ReadonlyArray<{ block: string; records: readonly DeclaredRecord<object>[] }> = [{ block: 'claims', records: CLAIMS_RECORDS as unknown as DeclaredRecord<object>[] }];

const start = (block: string) => `<!-- generated:records:${block} (npm run docs:records) -->`;
const end = (block: string) => `<!-- /generated:records:${block} -->`;

/** The doc with every declared block as the code says. */
export function withDeclaredTables(doc: string): string {
  let result = doc;
  for (const { block, records } of DECLARED_AREAS) {
    const from = result.indexOf(start(block));
    const to = result.indexOf(end(block));
    if (from < 0 || to < from) throw new Error(`docs/data-model.md has no block ${start(block)} ... ${end(block)}`);
    result = `${result.slice(0, from)}${start(block)}\n${recordsTable(records)}\n${result.slice(to)}`;
  }
  return result;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(DATA_MODEL, withDeclaredTables(readFileSync(DATA_MODEL, 'utf8')));
  console.log('docs/data-model.md: declared records rewritten');
}
