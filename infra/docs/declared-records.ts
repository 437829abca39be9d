/**
 * The tables of docs/data-model.md that come from the records' declarations (shared/platform/records.ts):
 * each declared area's block between its markers is rewritten from the code, so the doc cannot
 * drift from the keys. `npm run docs:records` rewrites them; test/unit/data-model-records.test.ts
 * fails when a block and the declarations differ.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { recordsTable, type DeclaredRecord } from '../../shared/platform/records.js';
import * as claimsRecords from '../../shared/claims/records.js';
import * as notesRecords from '../../shared/notes/records.js';
import * as policyGroupsRecords from '../../shared/policy-groups/records.js';
import * as moratoriumsRecords from '../../shared/moratoriums/records.js';
import * as catalogRecords from '../../shared/catalog/records.js';
import * as signaturesRecords from '../../shared/signatures/records.js';
import * as authRecords from '../../shared/auth/records.js';
import * as commissionsRecords from '../../shared/commissions/records.js';
import * as documentsRecords from '../../shared/documents/records.js';
import * as eventsRecords from '../../shared/events/records.js';
import * as urlOverridesRecords from '../../shared/url-overrides/records.js';

export const DATA_MODEL = fileURLToPath(new URL('../../docs/data-model.md', import.meta.url));

/** Each declared area: the name of its block, its records, and the name each is exported by from the module declaring them (their doc comments say what each is). */
export const DECLARED_AREAS: ReadonlyArray<{ block: string; records: readonly DeclaredRecord<object>[]; names: Map<DeclaredRecord<object>, string>; module: string }> = [
  declared('url-overrides', urlOverridesRecords),
  declared('policy-groups', policyGroupsRecords),
  declared('notes', notesRecords),
  declared('moratoriums', moratoriumsRecords),
  declared('catalog', catalogRecords),
  declared('signatures', signaturesRecords),
  declared('auth', authRecords),
  declared('commissions', commissionsRecords),
  declared('documents', documentsRecords),
  declared('events', eventsRecords),
  declared('claims', claimsRecords),
];

/** An area's block, named as its folder under shared/, whose records.ts declares them and lists them all in its `*_RECORDS`. */
function declared(area: string, module: Record<string, unknown>) {
  const listed = Object.entries(module).find(([name]) => name.endsWith('_RECORDS'));
  if (!listed) throw new Error(`shared/${area}/records.ts lists no declarations (*_RECORDS)`);
  const records = listed[1] as DeclaredRecord<object>[];
  const names = new Map(Object.entries(module).flatMap(([name, value]) => (records.includes(value as DeclaredRecord<object>) ? [[value as DeclaredRecord<object>, name] as const] : [])));
  return { block: area, records, names, module: fileURLToPath(new URL(`../../shared/${area}/records.ts`, import.meta.url)) };
}

/**
 * What each record of a module is, by the name it is exported by: the doc comment just above its
 * declaration (`/** ... *\/ export const x = defineRecord<...>({`). Two declarations may name one
 * entity (a layout still read beside the one written). A declaration without one fails.
 */
export function recordDescriptions(source: string): Map<string, string> {
  const described = new Map<string, string>();
  const declaration = /\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*export const (\w+) = (?:\/\* @__PURE__ \*\/ )?defineRecord<[^(]*>\(\{/g;
  for (const [, comment, name] of source.matchAll(declaration)) {
    described.set(name, comment.split('\n').map((line) => line.replace(/^\s*\*?\s?/, '').trim()).filter(Boolean).join(' ').replace(/\.$/, ''));
  }
  return described;
}

function describerOf(module: string, names: Map<DeclaredRecord<object>, string>): (record: DeclaredRecord<object>) => string {
  const described = recordDescriptions(readFileSync(module, 'utf8'));
  return (record) => {
    const text = described.get(names.get(record) ?? '');
    if (!text) throw new Error(`${module}: the record ${record.declaration.entity} is not exported by name with a doc comment saying what it is`);
    return text;
  };
}

const start = (block: string) => `<!-- generated:records:${block} (npm run docs:records) -->`;
const end = (block: string) => `<!-- /generated:records:${block} -->`;

/** The doc with every declared block as the code says. */
export function withDeclaredTables(doc: string): string {
  let result = doc;
  for (const { block, records, names, module } of DECLARED_AREAS) {
    const from = result.indexOf(start(block));
    const to = result.indexOf(end(block));
    if (from < 0 || to < from) throw new Error(`docs/data-model.md has no block ${start(block)} ... ${end(block)}`);
    result = `${result.slice(0, from)}${start(block)}\n${recordsTable(records, describerOf(module, names))}\n${result.slice(to)}`;
  }
  return result;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(DATA_MODEL, withDeclaredTables(readFileSync(DATA_MODEL, 'utf8')));
  console.log('docs/data-model.md: declared records rewritten');
}
