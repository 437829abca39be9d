/**
 * update_review_workflow: moves a revision's underwriter review along the reference
 * product's state table (workflow-rules.ts beside this) and keeps the state and
 * each move on the revision (through the policies area's recordUnderwriting), where retrieve_revision_details shows them. Agents ask for a
 * review and acknowledge it; approving or declining is an underwriter's call.
 */
import { hasPermission, type Principal } from '../platform/principal.js';
import { clock } from '../platform/clock.js';
import { PermissionDeniedError } from '../platform/errors.js';
import { recordUnderwriting, revisionWithinReach, underwritingOf, type ReviewMoveRecord } from '../policies/index.js';
import type { ReviewEvent, ReviewMove } from '../underwriting/index.js';
import { nextReviewState } from './workflow-rules.js';

/** The moves only an underwriter (or an Administrator) makes. */
const UNDERWRITER_EVENTS: readonly ReviewEvent[] = ['UW_REVIEW_APPROVED', 'UW_REVIEW_DECLINED'];
export const REVIEW_DECISION_PERMISSION = 'reviews:write';
/** A revision keeps its most recent moves; older ones add nothing a reader needs and would grow the record. */
const HISTORY_KEPT = 50;

export interface ReviewEventContext {
  stp?: { details?: unknown[]; status?: string };
  uw_message?: string;
  request_reason?: string;
}

export async function updateReviewWorkflow(
  principal: Principal,
  input: { revision_id: string; workflow_event: ReviewEvent; event_context?: ReviewEventContext },
  now = clock.now(),
): Promise<ReviewMove> {
  if (UNDERWRITER_EVENTS.includes(input.workflow_event) && !hasPermission(principal, REVIEW_DECISION_PERMISSION)) {
    throw new PermissionDeniedError(`Only an underwriter may send ${input.workflow_event}`);
  }
  const snapshot = await revisionWithinReach(principal, input.revision_id, { open: true });
  const underwriting = underwritingOf(snapshot.header.underwriting);
  // Refused moves throw ReviewMoveRefusedError naming the current state; nothing is written.
  const move = nextReviewState(underwriting.reviewState, input.workflow_event);
  const context = input.event_context ?? {};
  const record: ReviewMoveRecord = {
    event: input.workflow_event,
    from: move.prev_state,
    to: move.curr_state,
    at: now.toISOString(),
    byContactId: principal.contactId,
    uwMessage: context.uw_message ?? null,
    requestReason: context.request_reason ?? null,
  };
  // search filters by review state: the policies area moves the index record with the revision.
  await recordUnderwriting(snapshot.header, { ...underwriting, reviewState: move.curr_state, reviewHistory: [...underwriting.reviewHistory, record].slice(-HISTORY_KEPT) });
  return move;
}
