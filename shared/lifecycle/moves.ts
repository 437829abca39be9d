/**
 * A policy's moves, wired: `lifecycleMoves(wiring)` binds every move to the contributions
 * and reads registered once (shared/moves.ts). Entry files and the nightly job call these,
 * never a move with a list of their own.
 */
import type { Principal } from '../platform/principal.js';
import { bindPolicy } from './bind.js';
import { cancelPolicy, type CancelRequest, type DecisionOptions } from './cancel.js';
import { issuePolicy, type IssueRequest } from './issue.js';
import type { MoveWiring } from './model.js';
import { rescindCancellation, type RescindRequest } from './rescind.js';

export function lifecycleMoves(wiring: MoveWiring) {
  return {
    bind: (principal: Principal, by: { policyId?: string; policyNumber?: string }) => bindPolicy(principal, by),
    issue: (principal: Principal, request: IssueRequest, options?: DecisionOptions) => issuePolicy(wiring, principal, request, options),
    cancel: (principal: Principal, request: CancelRequest, options?: DecisionOptions) => cancelPolicy(wiring, principal, request, options),
    rescind: (principal: Principal, request: RescindRequest, options?: DecisionOptions) => rescindCancellation(wiring, principal, request, options),
  };
}

export type Moves = ReturnType<typeof lifecycleMoves>;
export type { CancelOutcome, CancelRequest, DecisionOptions } from './cancel.js';
export { PolicyNotCancellableError } from './cancel.js';
export type { RescindRequest } from './rescind.js';
export type { IssueRequest } from './issue.js';
