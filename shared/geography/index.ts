/**
 * The geography area's public face: what other areas may use of it. Anything not exported here
 * (its store's internals, its keys) is the area's own; test/unit/import-graph.test.ts holds to it.
 */
export { countiesOfState, lookupZip } from './zip-lookup.js';
export { lookupZipOnFirstUse } from './zip-lookup-on-first-use.js';
export { addressInfoFromZip, propertyInfoFromZip } from './zip-answers.js';
