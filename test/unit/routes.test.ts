import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FUNCTIONS_DIR, listOperationRoutes } from '../../infra/routes.js';

function tree(files: string[]) {
  const root = mkdtempSync(join(tmpdir(), 'routes-'));
  for (const file of files) {
    mkdirSync(join(root, file, '..'), { recursive: true });
    writeFileSync(join(root, file), 'export const handler = 1;');
  }
  return root;
}

describe('route table derived from the functions tree', () => {
  it('maps each entry file to POST /api/<version>/<module>/<operation>', () => {
    const root = tree(['v2/policies/create_policy.ts', 'v1/contacts/storeNewContact.ts']);
    expect(listOperationRoutes(root).map((route) => [route.path, route.id])).toEqual([
      ['/api/v1/contacts/storeNewContact', 'v1-contacts-storeNewContact'],
      ['/api/v2/policies/create_policy', 'v2-policies-create_policy'],
    ]);
  });

  it('refuses an entry file outside the <version>/<module>/<operation> shape', () => {
    const root = tree(['v2/stray.ts']);
    expect(() => listOperationRoutes(root)).toThrow(/functions\/v2\/stray\.ts/);
  });

  it('serves every operation file of this repository, each under the version and name its definition declares', () => {
    const files = (readdirSync(FUNCTIONS_DIR, { recursive: true }) as string[]).filter((file) => file.endsWith('.ts')).sort();
    expect(files.length).toBeGreaterThan(40);
    const expected = files.map((file) => `/api/${file.slice(0, -'.ts'.length).split(sep).join('/')}`);
    expect(listOperationRoutes().map((route) => route.path)).toEqual(expected);
    // Read, not imported (importing every entry file is the infra tests' loadOperations, seconds):
    // each file's defineOperation (or defineOperationWithoutCaller, defineIdempotentOperation) call names the version and operation of its own path.
    const declared = files.map((file) => {
      let source = readFileSync(join(FUNCTIONS_DIR, file), 'utf8');
      // A path existing clients call under another module (`/api/v2/utils/<operation>`) re-exports
      // the one handler: `export { handler } from '../policies/<operation>.js'`; one they call by
      // another name in the same module (`apply_pnc_lockbox_payment_transactions`) re-exports it
      // from './<operation>.js' and keeps its own name.
      const alias = /export \{ handler \} from '(\.\.?\/[^']+)\.js'/.exec(source);
      if (alias) source = readFileSync(join(FUNCTIONS_DIR, file, '..', `${alias[1]}.ts`), 'utf8');
      const definition = source.slice(source.search(/define(Idempotent)?Operation(WithoutCaller)?\(\{/));
      const ownName = file.split(sep)[2].slice(0, -'.ts'.length);
      const name = alias?.[1].startsWith('./') ? ownName : /\bname: '([^']+)'/.exec(definition)?.[1];
      return `/api/${/\bversion: '(v\d+)'/.exec(definition)?.[1]}/${file.split(sep)[1]}/${name}`;
    });
    expect(declared).toEqual(expected);
  });
});
