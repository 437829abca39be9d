/**
 * The moratoriums area's public face: what other areas may use of it (behaviour only: no
 * write builders, no keys). test/unit/import-graph.test.ts holds to it.
 */
export { moratoriumPreview, moratoriumsBlocking, moratoriumWarnings, readMoratoriums, readMoratoriumsFor, refuseUnderMoratoriums, type MoratoriumCheck, type MoratoriumsRead } from './service.js';
export { MoratoriumRefusalError, type MoratoriumBlock } from './model.js';
export { MORATORIUM_PERMISSION, declareMoratorium, liftMoratorium, listMoratoriumsFor, releaseMoratoriumHold, retrieveMoratorium } from './service.js';
