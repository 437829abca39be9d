/** The underwriter review of a revision as a state machine: a table of moves, nothing else (the review workflow's rules; workflow-service.ts makes the moves). */
import { REVIEW_EVENTS, REVIEW_STATES, ReviewMoveRefusedError, type ReviewEvent, type ReviewMove, type ReviewState } from '../underwriting/index.js';

/** Every allowed move: from one of `from`, the event leads to `to`. Any other move is refused. */
export const REVIEW_TRANSITIONS: ReadonlyArray<{ from: readonly ReviewState[]; event: ReviewEvent; to: ReviewState }> = [
  { from: ['NOT_STARTED', 'PENDING_AGENT_CHANGES'], event: 'UW_REVIEW_REQUESTED', to: 'PENDING_UNDERWRITER_REVIEW' },
  { from: ['PENDING_UNDERWRITER_REVIEW'], event: 'UW_REVIEW_APPROVED', to: 'APPROVED_BY_UW' },
  { from: ['PENDING_UNDERWRITER_REVIEW'], event: 'UW_REVIEW_DECLINED', to: 'PENDING_AGENT_CHANGES' },
  { from: ['APPROVED_BY_UW'], event: 'AGENT_ACK', to: 'READY_TO_APPLY' },
];

/** The state of a revision no one has asked to review yet. */
export const INITIAL_REVIEW_STATE: ReviewState = 'NOT_STARTED';

export function isReviewState(value: unknown): value is ReviewState {
  return (REVIEW_STATES as readonly unknown[]).includes(value);
}

export function isReviewEvent(value: unknown): value is ReviewEvent {
  return (REVIEW_EVENTS as readonly unknown[]).includes(value);
}

/**
 * Where `event` takes a review in state `current`; a `ReviewMoveRefusedError` naming the
 * current state when the table has no such move (unknown states and events included).
 */
export function nextReviewState(current: ReviewState | string, event: ReviewEvent | string): ReviewMove {
  const move = REVIEW_TRANSITIONS.find((candidate) => candidate.event === event && (candidate.from as readonly string[]).includes(current));
  if (!move || !isReviewState(current)) throw new ReviewMoveRefusedError(current, event);
  return { prev_state: current, curr_state: move.to };
}

/** The events that apply to a review in `current`, in table order. */
export function reviewEventsFrom(current: ReviewState): ReviewEvent[] {
  return REVIEW_TRANSITIONS.filter((move) => move.from.includes(current)).map((move) => move.event);
}
