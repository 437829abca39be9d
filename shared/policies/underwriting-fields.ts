/**
 * What underwriting keeps on a revision: the review's state and last moves, the last
 * straight-through (STP) result, and the last loss analysis. Kept together in one
 * attribute of the revision record (absent on revisions no one has underwritten yet).
 */
import type { StpFinding } from '../underwriting/index.js';

export interface StoredStp {
  ran: boolean;
  success: boolean;
  decision: 'accept' | 'refer' | 'decline' | null;
  details: StpFinding[];
  at: string;
}

export interface StoredLossAnalysis {
  jobId: string;
  status: 'requested' | 'completed';
  requestedAt: string;
  completedAt: string | null;
  /** What the analysis found: losses reported, the referral it implies. */
  result: { lossesReported: boolean; claimsFreeDiscountApplies: boolean; referral: boolean; summary: string } | null;
}

export interface ReviewMoveRecord {
  event: string;
  from: string;
  to: string;
  at: string;
  byContactId: string;
  uwMessage: string | null;
  requestReason: string | null;
}

export interface RevisionUnderwriting {
  reviewState: string;
  reviewHistory: ReviewMoveRecord[];
  stp: StoredStp | null;
  lossAnalysis: StoredLossAnalysis | null;
}

export const NO_UNDERWRITING: RevisionUnderwriting = { reviewState: 'NOT_STARTED', reviewHistory: [], stp: null, lossAnalysis: null };

export function underwritingOf(stored: RevisionUnderwriting | undefined): RevisionUnderwriting {
  return { ...NO_UNDERWRITING, ...(stored ?? {}) };
}

/** The fields retrieve_revision_details shows. */
export function underwritingToWire(stored: RevisionUnderwriting | undefined) {
  const underwriting = underwritingOf(stored);
  const stp = underwriting.stp;
  const analysis = underwriting.lossAnalysis;
  return {
    review_state: underwriting.reviewState,
    review_history: underwriting.reviewHistory.map((move) => ({
      event: move.event,
      prev_state: move.from,
      curr_state: move.to,
      date: move.at,
      by_contact_id: move.byContactId,
      uw_message: move.uwMessage,
      request_reason: move.requestReason,
    })),
    stp: stp ? { ran: stp.ran, success: stp.success, decision: stp.decision, details: stp.details.map(stpDetailToWire), date: stp.at } : null,
    loss_analysis: analysis
      ? { job_id: analysis.jobId, status: analysis.status, requested_at: analysis.requestedAt, completed_at: analysis.completedAt, result: analysis.result }
      : null,
  };
}

export function stpDetailToWire(finding: StpFinding) {
  return { rule_name: finding.rule, details: finding.message, outcome: finding.outcome };
}
