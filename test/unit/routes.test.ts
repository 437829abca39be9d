import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadOperations } from '../../infra/operations.js';
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

  it('serves every operation file of this repository, each under the version and name its handler declares', async () => {
    const files = (readdirSync(FUNCTIONS_DIR, { recursive: true }) as string[])
      .filter((file) => file.endsWith('.ts'))
      .map((file) => `/api/${file.slice(0, -'.ts'.length).split(sep).join('/')}`)
      .sort();
    expect(files.length).toBeGreaterThan(40);
    expect(listOperationRoutes().map((route) => route.path)).toEqual(files);
    // Importing each entry file checks that its handler is defineOperation's, naming its own path.
    const operations = await loadOperations();
    expect(operations.map((operation) => operation.path)).toEqual(files);
    for (const operation of operations) expect(operation.summary, operation.path).not.toBe('');
  });
});
