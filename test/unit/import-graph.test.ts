import { describe, expect, it } from 'vitest';
import { folderCycles, folderEdges, sharedModules, type FolderEdge } from '../support/import-graph.js';

/** The wiring module binds the platform to the auth area; only entry files import it. */
const WIRING = 'operation.ts';

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

  it('see a platform module importing an area as an edge out of the platform', () => {
    const found = folderEdges([module('shared/platform/operation.ts', 'shared/auth/authenticate.ts', 'shared/platform/errors.ts')]);
    expect(found.filter((candidate) => candidate.from === 'platform').map((candidate) => candidate.to)).toEqual(['auth']);
  });
});
