/**
 * Committing an open revision (issue with issue_info.revision_id) by its kind's move: a kind with
 * a move of its own (a rewrite revision, rewrite_policy's) is listed here once; any other open
 * revision is an endorsement. issue loads this module the first time it commits an open revision
 * (shared/moves/open-revisions.ts), so issuing new business never parses the endorsement and
 * rewrite moves.
 */
import { policyWithinReach, revisionWithinReach, type RevisionSnapshot } from '../policies/index.js';
import type { Principal } from '../platform/principal.js';
import { endorseMove } from './endorse.js';
import { isRewriteSnapshot, rewriteMove } from './rewrite.js';

type IssueRequest = { revisionId: string; policyId?: string };
type OwnsRevision = (revision: RevisionSnapshot) => boolean;

const ISSUED_BY: ReadonlyArray<{ owns: OwnsRevision; move: (principal: Principal, request: IssueRequest) => Promise<Record<string, unknown>> }> = [{ owns: isRewriteSnapshot, move: rewriteMove }];

/**
 * The revision is read once to choose its move, and the policy the request names beside it: an
 * endorsement's issue plans from these reads rather than making them again, one after the other.
 */
export async function commitOpenRevision(principal: Principal, request: IssueRequest): Promise<Record<string, unknown>> {
  const named = request.policyId ? policyWithinReach(principal, { policyId: request.policyId }) : undefined;
  // Judged by the move that uses it, after the revision's own checks.
  named?.catch(() => undefined);
  const stored = await revisionWithinReach(principal, request.revisionId);
  for (const kind of ISSUED_BY) if (kind.owns(stored)) return kind.move(principal, request);
  return endorseMove(principal, { ...request, stored, ...(named ? { named } : {}) });
}
