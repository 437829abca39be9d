/**
 * The rating area's public face: what other areas may use of it. Anything not exported here
 * (its store's internals, its keys) is the area's own; test/unit/import-graph.test.ts holds to it.
 */
export { indexCatalog } from './context.js';
export type { CatalogIndex } from './context.js';
export { RENEWAL_CAP_STEP, rateRevision } from './engine.js';
export { formsAttached } from './forms.js';
export { RatingInputError } from './model.js';
export type { AttachedForm, LineItemToRate, PropertyToRate, RatedLineItem, RatedRevision, RatingDetail, RenewalCapApplied, RevisionToRate } from './model.js';
export { resolveLimit } from './references.js';
export { productAtRateVersion, rateVersionFor, rateVersionOf, type RateBasis } from './versions.js';
