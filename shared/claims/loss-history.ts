/**
 * A policy's claims as underwriting reads them: what a renewal's "Losses in past 3 years" is
 * answered by (the lifecycle takes it through shared/moves/renew.ts, as it may not import this
 * area). Every claim of the policy, of any term and status, from the policy's listing: one query.
 */
import { claimsOfPolicy } from './store.js';

export interface LossOnFile {
  claimNumber: string;
  lossDate: string;
  perilCode: string;
  status: string;
}

/** The policy's claims, oldest loss first. */
export async function lossesOnFile(policyId: string): Promise<LossOnFile[]> {
  const claims = await claimsOfPolicy(policyId);
  return claims
    .map((claim) => ({ claimNumber: claim.claimNumber, lossDate: claim.lossDate, perilCode: claim.perilCode, status: claim.status }))
    .sort((a, b) => a.lossDate.localeCompare(b.lossDate) || a.claimNumber.localeCompare(b.claimNumber));
}
