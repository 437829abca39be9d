/**
 * Committing an open revision (issue with issue_info.revision_id) by its kind's move: a kind with
 * a move of its own (a rewrite revision, rewrite_policy's) is listed here once; any other open
 * revision is an endorsement. issue loads this module the first time it commits an open revision
 * (shared/moves/open-revisions.ts), so issuing new business never parses the endorsement and
 * rewrite moves.
 */
import type { Principal } from '../platform/principal.js';
import { endorseMove } from './endorse.js';
import { isRewriteRevision, rewriteMove } from './rewrite.js';

type IssueRequest = { revisionId: string; policyId?: string };
type OwnsRevision = (principal: Principal, revisionId: string) => Promise<boolean>;

const ISSUED_BY: ReadonlyArray<{ owns: OwnsRevision; move: (principal: Principal, request: IssueRequest) => Promise<Record<string, unknown>> }> = [{ owns: isRewriteRevision, move: rewriteMove }];

export async function commitOpenRevision(principal: Principal, request: IssueRequest): Promise<Record<string, unknown>> {
  for (const kind of ISSUED_BY) if (await kind.owns(principal, request.revisionId)) return kind.move(principal, request);
  return endorseMove(principal, request);
}
