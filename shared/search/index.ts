/**
 * The search area's public face: what other areas may use of it. Anything not exported here
 * (its store's internals, its keys) is the area's own; test/unit/import-graph.test.ts holds to it.
 */
export { searchRemovalOf, searchRecordOfNewPolicy, searchReviewStateChange, searchTermDatesChange } from './index-store.js';
export type { SearchablePolicy } from './model.js';
export { getSearchRecord } from './store.js';
export { MAX_SEARCH_PAGE_SIZE, policyTypesFilter, reviewStatesFilter, revisionStatesFilter, sortObject, statusesFilter } from './schemas.js';
export { getPolicies, getPoliciesByContact, getPoliciesInForce, searchPolicies } from './service.js';
