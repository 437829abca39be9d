/**
 * The notes area's public face: what other areas may use of it. Anything not exported here
 * (its store's internals, its keys) is the area's own; test/unit/import-graph.test.ts holds to it.
 */
export { listPolicyNotes, noteOf } from './store.js';
export type { NoteRecord } from './model.js';
export { removeNote } from './service.js';
