/**
 * retrieve_revision_analysis: straight-through processing run on a stored revision as it
 * stands now. It reads only; the STP result a quote stored when it was created stays as
 * it was.
 */
import { getProductCatalog } from '../catalog/index.js';
import type { Principal } from '../platform/principal.js';
import { revisionWithinReach, revisionToRate } from '../policies/index.js';
import { straightThrough } from '../underwriting/index.js';

export async function retrieveRevisionAnalysis(principal: Principal, revisionId: string) {
  const [snapshot, product] = await Promise.all([revisionWithinReach(principal, revisionId), getProductCatalog()]);
  const stp = straightThrough(product, revisionToRate(snapshot));
  return {
    stp_success: stp.success,
    stp_decision: stp.decision,
    stp_details: stp.details.map((finding) => ({ rule_name: finding.rule, details: finding.message, outcome: finding.outcome })),
  };
}
