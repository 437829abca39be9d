/**
 * Recording a revision's underwriting (the review workflow's moves, a loss analysis requested;
 * shared/review decides them): the policies area changes its own revision, guarded by its
 * version and open state, and when the review state moves the search record follows it in the
 * same transaction.
 */
import { searchReviewStateChange } from '../search/index.js';
import type { RevisionRecord } from './model.js';
import { changeRevision } from './store.js';
import { underwritingOf, type RevisionUnderwriting } from './underwriting-fields.js';

export async function recordUnderwriting(header: RevisionRecord, underwriting: RevisionUnderwriting): Promise<RevisionRecord> {
  const reviewMoved = underwriting.reviewState !== underwritingOf(header.underwriting).reviewState;
  return changeRevision(header, {
    header: { underwriting },
    ...(reviewMoved ? { handedWrites: searchReviewStateChange(header.policyId, underwriting.reviewState) } : {}),
  });
}
