import { describe, expect, it } from 'vitest';
import { entryModules, entryStoreImports, folderCycles, folderEdges, publicFaceViolations, sharedModules, type FolderEdge } from '../support/import-graph.js';

/** The wiring modules bind the platform to the auth area, and each move to its contributions (shared/moves/); only entry files import them. */
const WIRING = 'define-operation.ts';
const MOVES_WIRING = 'moves';

const modules = await sharedModules();
const edges = folderEdges(modules);

describe('the import graph of shared/', () => {
  it('has no circle between its folders', () => {
    const cycles = folderCycles(edges);
    const described = cycles.map((cycle) => `${cycle.join(' <-> ')}: ${edges.filter((edge) => cycle.includes(edge.from) && cycle.includes(edge.to)).map((edge) => edge.via).join(', ')}`);
    expect(described).toEqual([]);
  });

  it('keeps the platform free of every business area', () => {
    expect(edges.filter((edge) => edge.from === 'platform').map((edge) => edge.via)).toEqual([]);
  });

  it('lets no module of shared/ import the wiring module', () => {
    expect(edges.filter((edge) => edge.to === WIRING).map((edge) => edge.via)).toEqual([]);
    expect(edges.filter((edge) => edge.to === MOVES_WIRING).map((edge) => edge.via)).toEqual([]);
  });

  it("lets an area use another only through its public face (index.ts)", () => {
    expect(publicFaceViolations(modules)).toEqual([]);
  });

  it('lets no entry file (functions/, events/) import a store or keys', async () => {
    expect(entryStoreImports(await entryModules())).toEqual([]);
  });

  it('reads the real imports (the wiring module reaches the platform and auth)', () => {
    expect(edges.filter((edge) => edge.from === WIRING).map((edge) => edge.to).sort()).toEqual(['auth', 'platform']);
  });
});

describe('the folder-level checks', () => {
  const edge = (from: string, to: string): FolderEdge => ({ from, to, via: `shared/${from}/x.ts -> shared/${to}/y.ts` });
  const module = (source: string, ...resolved: string[]) => ({ source, dependencies: resolved.map((path) => ({ resolved: path })) }) as never;

  it('find a circle made by different files of two folders', () => {
    const found = folderEdges([module('shared/auth/a.ts', 'shared/contacts/b.ts'), module('shared/contacts/c.ts', 'shared/auth/d.ts', 'node:crypto')]);
    expect(folderCycles(found)).toEqual([['auth', 'contacts']]);
  });

  it('find a longer circle and ignore a chain that does not close', () => {
    expect(folderCycles([edge('a', 'b'), edge('b', 'c'), edge('c', 'a'), edge('c', 'd')])).toEqual([['a', 'b', 'c']]);
    expect(folderCycles([edge('policies', 'contacts'), edge('contacts', 'platform'), edge('policies', 'platform')])).toEqual([]);
  });

  it('find an import past another area\'s public face, and allow its index, the platform and the area itself', () => {
    expect(
      publicFaceViolations([
        module('shared/billing/a.ts', 'shared/policies/store.ts', 'shared/policies/index.ts', 'shared/platform/errors.ts', 'shared/billing/store.ts', 'node:crypto'),
        module('shared/moves/cancel.ts', 'shared/billing/joins-moves.ts', 'shared/lifecycle/cancel.ts', 'shared/billing/service.ts'),
        module('shared/lifecycle/cancel.ts', 'shared/billing/joins-moves.ts'),
      ]),
    ).toEqual(['shared/billing/a.ts -> shared/policies/store.ts', 'shared/moves/cancel.ts -> shared/billing/service.ts', 'shared/lifecycle/cancel.ts -> shared/billing/joins-moves.ts']);
  });

  it('find an entry file importing a store or keys, and allow its services', () => {
    expect(
      entryStoreImports([
        module('functions/v1/notes/removeNote.ts', 'shared/notes/store.ts', 'shared/notes/service.ts'),
        module('events/queues/x/y.ts', 'shared/policies/lifecycle-store.ts', 'shared/search/keys.ts', 'shared/moves/cancel.ts'),
        module('shared/notes/service.ts', 'shared/notes/store.ts'),
      ]),
    ).toEqual(['functions/v1/notes/removeNote.ts -> shared/notes/store.ts', 'events/queues/x/y.ts -> shared/policies/lifecycle-store.ts', 'events/queues/x/y.ts -> shared/search/keys.ts']);
  });

  it('see a platform module importing an area as an edge out of the platform', () => {
    const found = folderEdges([module('shared/platform/operation.ts', 'shared/auth/authenticate.ts', 'shared/platform/errors.ts')]);
    expect(found.filter((candidate) => candidate.from === 'platform').map((candidate) => candidate.to)).toEqual(['auth']);
  });
});
