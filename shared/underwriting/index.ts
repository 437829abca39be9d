/**
 * The underwriting area's public face: what other areas may use of it. Anything not exported here
 * (its store's internals, its keys) is the area's own; test/unit/import-graph.test.ts holds to it.
 */
export { builtInLossAnalysisVendor } from './loss-analysis.js';
export type { LossAnalysisRequest, LossAnalysisVendor } from './loss-analysis.js';
export { REVIEW_EVENTS, REVIEW_STATES, ReviewMoveRefusedError } from './model.js';
export type { ReviewEvent, ReviewMove, ReviewState, StpFinding, StpResult } from './model.js';
export { straightThrough } from './straight-through.js';
