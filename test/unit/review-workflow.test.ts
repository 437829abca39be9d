import { describe, expect, it } from 'vitest';
import { REVIEW_EVENTS, REVIEW_STATES, ReviewMoveRefusedError } from '../../shared/underwriting/model.js';
import { nextReviewState, reviewEventsFrom } from '../../shared/review/workflow-rules.js';

describe('the underwriter review workflow', () => {
  it.each([
    ['NOT_STARTED', 'UW_REVIEW_REQUESTED', 'PENDING_UNDERWRITER_REVIEW'],
    ['PENDING_AGENT_CHANGES', 'UW_REVIEW_REQUESTED', 'PENDING_UNDERWRITER_REVIEW'],
    ['PENDING_UNDERWRITER_REVIEW', 'UW_REVIEW_APPROVED', 'APPROVED_BY_UW'],
    ['PENDING_UNDERWRITER_REVIEW', 'UW_REVIEW_DECLINED', 'PENDING_AGENT_CHANGES'],
    ['APPROVED_BY_UW', 'AGENT_ACK', 'READY_TO_APPLY'],
  ] as const)('moves from %s on %s to %s', (from, event, to) => {
    expect(nextReviewState(from, event)).toEqual({ prev_state: from, curr_state: to });
  });

  it('refuses a move the table does not have, naming the current state', () => {
    const attempt = () => nextReviewState('NOT_STARTED', 'UW_REVIEW_APPROVED');
    expect(attempt).toThrow(ReviewMoveRefusedError);
    expect(attempt).toThrow('The review is NOT_STARTED; UW_REVIEW_APPROVED does not apply to it');
    try {
      attempt();
    } catch (error) {
      expect((error as ReviewMoveRefusedError).messages).toEqual(['The review is NOT_STARTED; UW_REVIEW_APPROVED does not apply to it']);
    }
  });

  it('allows exactly five moves among all states and events, and none from READY_TO_APPLY', () => {
    const allowed = REVIEW_STATES.flatMap((state) => REVIEW_EVENTS.filter((event) => {
      try {
        nextReviewState(state, event);
        return true;
      } catch (error) {
        expect(error).toBeInstanceOf(ReviewMoveRefusedError);
        return false;
      }
    }));
    expect(allowed).toHaveLength(5);
    expect(reviewEventsFrom('READY_TO_APPLY')).toEqual([]);
    expect(reviewEventsFrom('PENDING_UNDERWRITER_REVIEW')).toEqual(['UW_REVIEW_APPROVED', 'UW_REVIEW_DECLINED']);
  });

  it('refuses unknown states and events', () => {
    expect(() => nextReviewState('SOMEWHERE', 'UW_REVIEW_REQUESTED')).toThrow('The review is SOMEWHERE');
    expect(() => nextReviewState('NOT_STARTED', 'PLEASE')).toThrow(ReviewMoveRefusedError);
  });
});
