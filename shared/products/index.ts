/** The products area's face: a candidate product version's impact on the book in force (rate_impact). */
export { handleRateImpactMessage, rateImpactMessage, retrieveRateImpact, startRateImpact } from './impact.js';
