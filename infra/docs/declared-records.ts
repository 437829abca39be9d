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
import { NOTES_RECORDS } from '../../shared/notes/records.js';
import { POLICY_GROUPS_RECORDS } from '../../shared/policy-groups/records.js';
import { MORATORIUMS_RECORDS } from '../../shared/moratoriums/records.js';
import { CATALOG_RECORDS } from '../../shared/catalog/records.js';
import { SIGNATURES_RECORDS } from '../../shared/signatures/records.js';
import { AUTH_RECORDS } from '../../shared/auth/records.js';
import { COMMISSIONS_RECORDS } from '../../shared/commissions/records.js';
import { URL_OVERRIDES_RECORDS } from '../../shared/url-overrides/records.js';

export const DATA_MODEL = fileURLToPath(new URL('../../docs/data-model.md', import.meta.url));

/** Each declared area: the name of its block, its records and the module declaring them (their doc comments say what each is). */
export const DECLARED_AREAS: ReadonlyArray<{ block: string; records: readonly DeclaredRecord<object>[]; module: string }> = [
  declared('url-overrides', URL_OVERRIDES_RECORDS),
  declared('policy-groups', POLICY_GROUPS_RECORDS),
  declared('notes', NOTES_RECORDS),
  declared('moratoriums', MORATORIUMS_RECORDS),
  declared('catalog', CATALOG_RECORDS),
  declared('signatures', SIGNATURES_RECORDS),
  declared('auth', AUTH_RECORDS),
  declared('commissions', COMMISSIONS_RECORDS),
  declared('claims', CLAIMS_RECORDS),
];

/** An area's block, named as its folder under shared/, whose records.ts declares them. */
function declared(area: string, records: readonly unknown[]) {
  return { block: area, records: records as unknown as DeclaredRecord<object>[], module: fileURLToPath(new URL(`../../shared/${area}/records.ts`, import.meta.url)) };
}

/**
 * What each record of a module is, by entity: the doc comment just above its declaration
 * (`/** ... *\/ export const x = defineRecord<...>({ entity: '...'`). A declaration without one fails.
 */
export function recordDescriptions(source: string): Map<string, string> {
  const described = new Map<string, string>();
  const declaration = /\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*export const \w+ = (?:\/\* @__PURE__ \*\/ )?defineRecord<[^>]*>\(\{\s*entity: '([^']+)'/g;
  for (const [, comment, entity] of source.matchAll(declaration)) {
    described.set(entity, comment.split('\n').map((line) => line.replace(/^\s*\*?\s?/, '').trim()).filter(Boolean).join(' ').replace(/\.$/, ''));
  }
  return described;
}

function describerOf(module: string): (entity: string) => string {
  const described = recordDescriptions(readFileSync(module, 'utf8'));
  return (entity) => {
    const text = described.get(entity);
    if (!text) throw new Error(`${module}: the record ${entity} has no doc comment saying what it is`);
    return text;
  };
}

const start = (block: string) => `<!-- generated:records:${block} (npm run docs:records) -->`;
const end = (block: string) => `<!-- /generated:records:${block} -->`;

/** The doc with every declared block as the code says. */
export function withDeclaredTables(doc: string): string {
  let result = doc;
  for (const { block, records, module } of DECLARED_AREAS) {
    const from = result.indexOf(start(block));
    const to = result.indexOf(end(block));
    if (from < 0 || to < from) throw new Error(`docs/data-model.md has no block ${start(block)} ... ${end(block)}`);
    result = `${result.slice(0, from)}${start(block)}\n${recordsTable(records, describerOf(module))}\n${result.slice(to)}`;
  }
  return result;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(DATA_MODEL, withDeclaredTables(readFileSync(DATA_MODEL, 'utf8')));
  console.log('docs/data-model.md: declared records rewritten');
}
