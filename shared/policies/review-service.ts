/**
 * Recording an underwriter review's move on a revision: the policies area changes its own
 * revision (guarded by its version and open state) and the search record follows the review
 * state in the same transaction. The review area decides the move; this stores it.
 */
import { searchIndexWritesForReviewState } from '../search/index.js';
import type { RevisionRecord } from './model.js';
import { changeRevision } from './store.js';
import type { RevisionUnderwriting } from './underwriting-fields.js';

export async function recordReviewMove(header: RevisionRecord, underwriting: RevisionUnderwriting): Promise<RevisionRecord> {
  return changeRevision(header, {
    header: { underwriting },
    handedWrites: searchIndexWritesForReviewState(header.policyId, underwriting.reviewState),
  });
}

/** Records that a loss analysis was requested for the revision (its job on the underwriting record), guarded as every change of a revision. */
export async function recordLossAnalysisRequest(header: RevisionRecord, underwriting: RevisionUnderwriting): Promise<RevisionRecord> {
  return changeRevision(header, { header: { underwriting } });
}
