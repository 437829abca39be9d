import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listOperationRoutes } from '../../infra/routes.js';

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

  it('lists the operations of this repository', () => {
    expect(listOperationRoutes().map((route) => route.path)).toContain('/api/v2/utils/get_release_info');
  });
});
