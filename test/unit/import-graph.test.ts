import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { entryInnerImports, entryModules, entryStoreImports, faceOf, faceWriteBuildersAndKeys, folderCycles, folderEdges, infraModules, keysImportsOutsideStores, publicFaceViolations, sharedModules, storeImportsFrom, type FolderEdge } from '../support/import-graph.js';

/** The wiring modules bind the platform to the auth area, and each move to its contributions (shared/moves/); only entry files import them. */
const WIRING = 'define-operation.ts';
const MOVES_WIRING = 'moves';

/**
 * infra/ naming a store or keys: only the local runtime (infra/local/), which stands in for AWS
 * and so does by hand what a managed service does there. Every other infra/ module, the CDK
 * constructs included, asks the area's face (e.g. the partitions a deploy-time seed writes).
 */
const INFRA_STORE_IMPORTS_ALLOWED = [
  // The OAuth issuer stands in for Cognito: it checks a client's secret where Cognito would.
  'infra/local/oauth-issuer.ts -> shared/auth/store.ts',
  // The stream's polling stands in for DynamoDB Streams and EventBridge Pipes: it reads the pending records.
  'infra/local/nightly.ts -> shared/documents/request-store.ts',
  'infra/local/pipe-dispatchers.ts -> shared/documents/request-store.ts',
  'infra/local/pipe-dispatchers.ts -> shared/events/store.ts',
  // docs/data-model.md's generated tables are of the keys themselves: they read the declarations, which no face exports.
  'infra/docs/declared-records.ts -> shared/claims/records.ts',
  'infra/docs/declared-records.ts -> shared/url-overrides/records.ts',
  'infra/docs/declared-records.ts -> shared/events/records.ts',
  'infra/docs/declared-records.ts -> shared/documents/records.ts',
  'infra/docs/declared-records.ts -> shared/commissions/records.ts',
  'infra/docs/declared-records.ts -> shared/auth/records.ts',
  'infra/docs/declared-records.ts -> shared/signatures/records.ts',
  'infra/docs/declared-records.ts -> shared/catalog/records.ts',
  'infra/docs/declared-records.ts -> shared/moratoriums/records.ts',
  'infra/docs/declared-records.ts -> shared/policy-groups/records.ts',
  'infra/docs/declared-records.ts -> shared/notes/records.ts',
];

/**
 * infra/ importing an area's inner module rather than its index.ts (issue 29 item 2): the local
 * runtime's stand-ins for AWS (the stores above) and the migrations, which run once over stored
 * data and are no behaviour an area offers (so no face exports them). Every other infra/ module
 * and every entry file imports through the face. The list may only shrink.
 */
const INFRA_INNER_IMPORTS_ALLOWED = [
  ...INFRA_STORE_IMPORTS_ALLOWED,
  // Migrations: the local bootstrap and service run them at start, as the deploy runs infra/migrations/.
  'infra/local/bootstrap.ts -> shared/billing/lockbox-due-backfill.ts',
  'infra/local/bootstrap.ts -> shared/contacts/seal-identifiers-migration.ts',
  'infra/local/service.ts -> shared/documents/print-entries-migration.ts',
  'infra/migrations/backfill-lockbox-dues.ts -> shared/billing/lockbox-due-backfill.ts',
];

const faces = readdirSync('shared', { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(`shared/${entry.name}/index.ts`))
  .map((entry) => ({ path: `shared/${entry.name}/index.ts`, source: readFileSync(`shared/${entry.name}/index.ts`, 'utf8') }));

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

  it('lets no public face hand out a DynamoDB write builder or a key (issue 29 item 2)', () => {
    expect(
      faceWriteBuildersAndKeys(faces),
      'An index.ts exports a DynamoDB write builder or a key (a name ending in Write(s)/Put/Delete(s)/Key, or anything from keys.ts). ' +
        'Do not export it. Instead: for a policy move, add the area\'s contribution ' +
        'to its joins-moves.ts and list it in shared/moves/<move>.ts; outside a move, export a function that takes the facts and returns the ' +
        "area's own writes typed as the platform's TransactionWrite (like noteOf in shared/notes/store.ts or eventOf in shared/events/outbox.ts), or performs them itself.",
    ).toEqual([]);
  });

  it('lets infra/ name a store or keys only where listed (the local runtime)', async () => {
    const found = storeImportsFrom(await infraModules(), /^infra\//);
    expect(found.filter((edge) => !INFRA_STORE_IMPORTS_ALLOWED.includes(edge))).toEqual([]);
    expect(INFRA_STORE_IMPORTS_ALLOWED.filter((listed) => !found.includes(listed))).toEqual([]);
  });

  it('lets no module but a store name its area\'s keys', () => {
    expect(keysImportsOutsideStores(modules), 'Keys are the store\'s alone: read and write through a function of the area\'s store (store.ts or <name>-store.ts).').toEqual([]);
  });

  it('has entry files (functions/, events/) and infra/ import an area through its face (infra/: the local runtime and migrations where listed)', async () => {
    const rule =
      'An entry file imports shared/<area>/index.ts (or shared/platform/*, shared/define-operation.ts, shared/moves/*), never an area\'s inner module: ' +
      'export what it needs from the area\'s index.ts (a re-export, no top-level code) and import that.';
    expect(entryInnerImports(await entryModules()), rule).toEqual([]);
    const infra = entryInnerImports(await infraModules(), /^infra\//);
    expect(infra.filter((found) => !INFRA_INNER_IMPORTS_ALLOWED.includes(found)), `${rule} Only the local runtime's stand-ins for AWS and the migrations are listed in INFRA_INNER_IMPORTS_ALLOWED.`).toEqual([]);
    expect(INFRA_INNER_IMPORTS_ALLOWED.filter((listed) => !infra.includes(listed)), 'These now import through the face: delete them from INFRA_INNER_IMPORTS_ALLOWED (the list only shrinks).').toEqual([]);
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

  it('find a face exporting a write builder or a key, and leave behaviour and types alone', () => {
    expect(
      faceWriteBuildersAndKeys([
        {
          path: 'shared/x/index.ts',
          source: "export { getThing, thingWrites, thingPut as putThing } from './store.js';\nexport { thingKey } from './keys.js';\nexport { PARTITION } from './keys.js';\nexport type { ThingKey } from './model.js';\nexport { searchIndexWritesForStatus } from './w.js';\nexport function orderDelete() {}\n",
        },
      ]),
    ).toEqual(['shared/x/index.ts: thingWrites', 'shared/x/index.ts: putThing', 'shared/x/index.ts: thingKey', 'shared/x/index.ts: PARTITION', 'shared/x/index.ts: searchIndexWritesForStatus', 'shared/x/index.ts: orderDelete']);
  });

  it('find a module other than a store naming keys, and an entry file passing by a face', () => {
    expect(keysImportsOutsideStores([module('shared/x/rules.ts', 'shared/x/keys.ts'), module('shared/x/store.ts', 'shared/x/keys.ts'), module('shared/x/index-store.ts', 'shared/x/keys.ts')])).toEqual(['shared/x/rules.ts -> shared/x/keys.ts']);
    expect(['shared/billing/index.ts', 'shared/platform/clock.ts', 'shared/define-operation.ts', 'shared/moves/cancel.ts', 'shared/billing/service.ts', 'node:crypto'].map(faceOf)).toEqual(['face', 'face', 'face', 'face', 'inner', undefined]);
    expect(entryInnerImports([module('functions/v1/x/y.ts', 'shared/billing/index.ts', 'shared/billing/nsf.ts', 'shared/platform/errors.ts'), module('shared/billing/nsf.ts', 'shared/billing/store.ts')])).toEqual([
      'functions/v1/x/y.ts -> shared/billing/nsf.ts',
    ]);
  });

  it('see a platform module importing an area as an edge out of the platform', () => {
    const found = folderEdges([module('shared/platform/operation.ts', 'shared/auth/authenticate.ts', 'shared/platform/errors.ts')]);
    expect(found.filter((candidate) => candidate.from === 'platform').map((candidate) => candidate.to)).toEqual(['auth']);
  });
});

describe('what lets an entry file import a whole face at no bundle cost', () => {
  const bundledSources = ['shared', 'functions', 'events'].flatMap((root) =>
    readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
      .map((file) => ({ path: `${root}/${file}`, source: readFileSync(`${root}/${file}`, 'utf8') })),
  );

  it('marks the package free of side effects, so esbuild drops the modules of a face a function does not use', () => {
    // Without it, every module a face re-exports that runs code at load (a zod schema, a client)
    // stays in every bundle that imports the face: 4 to 7 KiB a function when this was measured.
    const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { sideEffects?: unknown };
    expect(manifest.sideEffects).toBe(false);
  });

  it('imports no module for its effects alone, which that marking would drop from the bundle', () => {
    expect(bundledSources.filter((file) => /^\s*import\s+['"]/m.test(file.source)).map((file) => file.path)).toEqual([]);
  });
});

describe('the one way to send to a queue or commit a transaction (issue 29 item 3)', () => {
  it('lets only the platform send to SQS: every other module sends through sendInBatches', () => {
    const senders = ['shared', 'functions', 'events']
      .flatMap((root) => readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts')).map((file) => `${root}/${file}`))
      .filter((path) => /\bSendMessage(Batch)?Command\b/.test(readFileSync(path, 'utf8')));
    expect(senders).toEqual(['shared/platform/queue-sends.ts']);
  });

  it('lets only the platform send a transaction: every store writes through runTransaction (its retries, conditions and errors)', () => {
    const senders = ['shared', 'functions', 'events']
      .flatMap((root) => readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts')).map((file) => `${root}/${file}`))
      .filter((path) => /\bTransactWrite(Items)?Command\b/.test(readFileSync(path, 'utf8')));
    expect(senders).toEqual(['shared/platform/transactions.ts']);
  });
});
