/**
 * The import graph of shared/, folder by folder: which area imports which, read by
 * dependency-cruiser from the sources (type-only imports included: they couple too).
 */
import { cruise, type IModule } from 'dependency-cruiser';

/** A folder of shared/ (`platform`, `contacts`, ...), or a file at its top (the wiring module). */
export type Folder = string;

export interface FolderEdge {
  from: Folder;
  to: Folder;
  /** One import that makes the edge, for the failure message. */
  via: string;
}

/** The folder of a path under shared/, or undefined for anything outside it (node_modules, node:). */
export function folderOf(path: string): Folder | undefined {
  const match = /^shared\/([^/]+)/.exec(path);
  return match?.[1];
}

/** Edges between different folders of shared/, one per pair, from a module list. */
export function folderEdges(modules: ReadonlyArray<Pick<IModule, 'source' | 'dependencies'>>): FolderEdge[] {
  const edges = new Map<string, FolderEdge>();
  for (const module of modules) {
    const from = folderOf(module.source);
    if (!from) continue;
    for (const dependency of module.dependencies) {
      const to = folderOf(dependency.resolved);
      if (!to || to === from) continue;
      const key = `${from}->${to}`;
      if (!edges.has(key)) edges.set(key, { from, to, via: `${module.source} -> ${dependency.resolved}` });
    }
  }
  return [...edges.values()];
}

/** Every set of folders that import one another in a circle (strongly connected, more than one). */
export function folderCycles(edges: readonly FolderEdge[]): Folder[][] {
  const next = new Map<Folder, Folder[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<Folder, number>();
  const low = new Map<Folder, number>();
  const stack: Folder[] = [];
  const cycles: Folder[][] = [];
  const visit = (folder: Folder) => {
    index.set(folder, index.size);
    low.set(folder, index.get(folder)!);
    stack.push(folder);
    for (const target of next.get(folder) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(folder, Math.min(low.get(folder)!, low.get(target)!));
      } else if (stack.includes(target)) {
        low.set(folder, Math.min(low.get(folder)!, index.get(target)!));
      }
    }
    if (low.get(folder) === index.get(folder)) {
      const component: Folder[] = [];
      let member: Folder;
      do {
        member = stack.pop()!;
        component.push(member);
      } while (member !== folder);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const folder of new Set(edges.flatMap(({ from, to }) => [from, to]))) if (!index.has(folder)) visit(folder);
  return cycles;
}

/** The modules of shared/ with their resolved imports (node_modules not followed). */
export async function sharedModules(): Promise<IModule[]> {
  const result = await cruise(['shared'], {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.json$' },
    tsPreCompilationDeps: true,
    outputType: 'json',
  });
  const output = typeof result.output === 'string' ? JSON.parse(result.output) : result.output;
  return output.modules as IModule[];
}

/** The folder of the wiring modules, one per move: they list each area's contributions to the move. */
export const MOVE_WIRING_FOLDER = 'moves';

/**
 * An import that passes by an area's public face: a module of one area importing another area's
 * module other than its index.ts. An area's second face, `joins-moves.ts` (its contributions to
 * the moves), is for the wiring modules (shared/moves/) alone, as is the lifecycle's move files.
 */
export function publicFaceViolations(modules: ReadonlyArray<Pick<IModule, 'source' | 'dependencies'>>): string[] {
  const violations: string[] = [];
  for (const module of modules) {
    const from = /^shared\/([^/]+)\//.exec(module.source)?.[1];
    if (!from) continue;
    for (const dependency of module.dependencies) {
      const target = /^shared\/([^/]+)\/(.+)$/.exec(dependency.resolved);
      if (!target || target[1] === from || target[1] === 'platform' || target[2] === 'index.ts') continue;
      if (from === MOVE_WIRING_FOLDER && (target[2] === 'joins-moves.ts' || target[1] === 'lifecycle')) continue;
      violations.push(`${module.source} -> ${dependency.resolved}`);
    }
  }
  return violations;
}

/** A store or its keys: what only its own area's services may call. */
const STORE_MODULE = /^shared\/(?!platform\/)[^/]+\/(?:(?:[a-z-]+-)?store|keys|records)\.ts$/;

/** An entry file (functions/, events/) importing a store or keys instead of a service. */
export function entryStoreImports(modules: ReadonlyArray<Pick<IModule, 'source' | 'dependencies'>>): string[] {
  return modules
    .filter((module) => /^(functions|events)\//.test(module.source))
    .flatMap((module) => module.dependencies.filter((dependency) => STORE_MODULE.test(dependency.resolved)).map((dependency) => `${module.source} -> ${dependency.resolved}`));
}

/** The entry files with their resolved imports. */
export async function entryModules(): Promise<IModule[]> {
  const result = await cruise(['functions', 'events'], {
    doNotFollow: { path: 'node_modules|^shared/' },
    exclude: { path: '\\.json$' },
    tsPreCompilationDeps: true,
    outputType: 'json',
  });
  const output = typeof result.output === 'string' ? JSON.parse(result.output) : result.output;
  return (output.modules as IModule[]).filter((module) => /^(functions|events)\//.test(module.source));
}

/** A name that says it is a DynamoDB write builder or a key: `...Writes`, `...WritesFor...`, `...Put`, `...Delete(s)`, `...Key(s)`. */
const WRITE_BUILDER_OR_KEY = /(?:Writes?|Puts?|Deletes?|Keys?)(?:$|For[A-Z])/;

/**
 * What each public face (shared/<area>/index.ts) exports that is a DynamoDB write builder or a
 * key rather than behaviour: a value named as one, or anything re-exported from a keys.ts.
 * Read from the faces' sources (`export { a, b as c } from './x.js'`, `export function`/`const`);
 * type-only exports are left out.
 */
export function faceWriteBuildersAndKeys(faces: ReadonlyArray<{ path: string; source: string }>): string[] {
  const found: string[] = [];
  for (const face of faces) {
    for (const match of face.source.matchAll(/export\s+(type\s+)?\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/g)) {
      if (match[1]) continue;
      const fromKeys = /(?:^|\/)keys\.js$/.test(match[3]);
      for (const part of match[2].split(',').map((entry) => entry.trim())) {
        if (!part || part.startsWith('type ')) continue;
        // An alias does not hide a builder: `thingPut as putThing` is one all the same.
        const names = part.split(/\s+as\s+/).map((name) => name.trim());
        if (fromKeys || names.some((name) => WRITE_BUILDER_OR_KEY.test(name))) found.push(`${face.path}: ${names.at(-1)}`);
      }
    }
    for (const match of face.source.matchAll(/export\s+(?:async\s+)?(?:function|const|let)\s+([A-Za-z0-9_$]+)/g)) {
      if (WRITE_BUILDER_OR_KEY.test(match[1])) found.push(`${face.path}: ${match[1]}`);
    }
  }
  return found;
}

/** An importer outside shared/ (infra/) naming a store or keys. */
export function storeImportsFrom(modules: ReadonlyArray<Pick<IModule, 'source' | 'dependencies'>>, importer: RegExp): string[] {
  return modules
    .filter((module) => importer.test(module.source))
    .flatMap((module) => module.dependencies.filter((dependency) => STORE_MODULE.test(dependency.resolved)).map((dependency) => `${module.source} -> ${dependency.resolved}`));
}

/** The modules of infra/ with their resolved imports (shared/ and node_modules not followed). */
export async function infraModules(): Promise<IModule[]> {
  const result = await cruise(['infra'], {
    doNotFollow: { path: 'node_modules|^shared/' },
    exclude: { path: '\\.json$' },
    tsPreCompilationDeps: true,
    outputType: 'json',
  });
  const output = typeof result.output === 'string' ? JSON.parse(result.output) : result.output;
  return (output.modules as IModule[]).filter((module) => /^infra\//.test(module.source));
}

/** A module that may name its area's keys: the keys module itself and the area's stores (`store.ts`, `<something>-store.ts`). */
const MAY_NAME_KEYS = /^shared\/[^/]+\/(?:(?:[a-z-]+-)?store|keys|records)\.ts$/;

/** A module of shared/ importing a keys.ts without being a store: keys are the store's alone. */
export function keysImportsOutsideStores(modules: ReadonlyArray<Pick<IModule, 'source' | 'dependencies'>>): string[] {
  return modules
    .filter((module) => /^shared\//.test(module.source) && !MAY_NAME_KEYS.test(module.source))
    .flatMap((module) => module.dependencies.filter((dependency) => /^shared\/(?!platform\/)[^/]+\/(?:keys|records)\.ts$/.test(dependency.resolved)).map((dependency) => `${module.source} -> ${dependency.resolved}`));
}

/**
 * The face an entry file (functions/, events/, infra/) may import of each area: its index.ts.
 * The platform (`shared/platform/*`), the top-level wiring modules (`shared/define-operation.ts`)
 * and the moves' wiring (`shared/moves/*`) are whole faces of their own.
 */
export function faceOf(path: string): 'face' | 'inner' | undefined {
  const match = /^shared\/(?:([^/]+)\/(.+)|[^/]+\.ts)$/.exec(path);
  if (!match) return undefined;
  const [, area, file] = match;
  if (area === undefined || area === 'platform' || area === MOVE_WIRING_FOLDER || file === 'index.ts') return 'face';
  return 'inner';
}

/** An entry file (or an infra/ module) importing an area's inner module rather than its index.ts. */
export function entryInnerImports(modules: ReadonlyArray<Pick<IModule, 'source' | 'dependencies'>>, importer: RegExp = /^(functions|events)\//): string[] {
  return modules
    .filter((module) => importer.test(module.source))
    .flatMap((module) => module.dependencies.filter((dependency) => faceOf(dependency.resolved) === 'inner').map((dependency) => `${module.source} -> ${dependency.resolved}`));
}
