/**
 * The underwriting area's types: what straight-through processing (STP) finds, and the
 * states and events of an underwriter's review of a revision.
 */
import { BusinessRuleError } from '../platform/errors.js';

/** How a failed rule stops straight-through processing. */
export type StpOutcome = 'refer' | 'decline';

/** One rule that failed, and where. */
export interface StpFinding {
  /** The rule's name: the question's name, or the catalog rule's name. */
  rule: string;
  outcome: StpOutcome;
  message: string;
}

export interface StpResult {
  /** True when no rule failed. */
  success: boolean;
  /** The strongest outcome among the findings: any decline declines, else any referral refers. */
  decision: 'accept' | StpOutcome;
  details: StpFinding[];
}

/** The catalog's underwriting rules are not usable (a condition the engine cannot read). */
export class UnderwritingRuleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnderwritingRuleError';
  }
}

export const REVIEW_STATES = [
  'NOT_STARTED',
  'PENDING_AGENT_CHANGES',
  'PENDING_UNDERWRITER_REVIEW',
  'APPROVED_BY_UW',
  'READY_TO_APPLY',
] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

export const REVIEW_EVENTS = ['UW_REVIEW_REQUESTED', 'UW_REVIEW_APPROVED', 'UW_REVIEW_DECLINED', 'AGENT_ACK'] as const;
export type ReviewEvent = (typeof REVIEW_EVENTS)[number];

/** A move of the review, named as `update_review_workflow` answers it. */
export interface ReviewMove {
  prev_state: ReviewState;
  curr_state: ReviewState;
}

/** The event does not apply to the review's current state; the review stays where it is. */
export class ReviewMoveRefusedError extends BusinessRuleError {
  readonly currentState: string;
  readonly event: string;
  constructor(currentState: string, event: string) {
    super(`The review is ${currentState}; ${event} does not apply to it`);
    this.name = 'ReviewMoveRefusedError';
    this.currentState = currentState;
    this.event = event;
  }
}
