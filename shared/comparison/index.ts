/**
 * The comparison area's public face: what entry files and other areas may use of it. Anything not
 * exported here (its store, its keys) is the area's own; test/unit/import-graph.test.ts holds to it.
 */
export { compareRevisionsOf } from './service.js';
