/** The products area's face: a candidate product version's impact on the book in force (rate_impact). */
export { handleRateImpactMessage, rateImpactMessage, retrieveRateImpact, startRateImpact } from './impact.js';
export { checkProductPackage } from './check.js';
export { importLineFile } from './publish.js';
export { getAllEffectiveDates, getAllLines, getAllStates, getExportLineFile, withdrawLineFile } from './service.js';
