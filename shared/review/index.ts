/**
 * The review area's public face: what entry files and other areas may use of it. Anything not
 * exported here (its store, its keys) is the area's own; test/unit/import-graph.test.ts holds to it.
 */
export { retrieveRevisionAnalysis } from './analysis-service.js';
export { lossAnalysisJob, requestLossAnalysis, runLossAnalysisJob } from './loss-analysis-service.js';
export { updateReviewWorkflow } from './workflow-service.js';
