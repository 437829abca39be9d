/**
 * The moves an open revision is committed by (issue with issue_info.revision_id) and previewed
 * by (preview_revision), chosen by the revision's kind: a kind with a move of its own (a rewrite
 * revision, rewrite_policy's) is listed here once; any other open revision is an endorsement.
 * The entry files ask this module, so a move that opens revisions of its own kind joins here, not
 * in them. Committing and previewing keep lists apart: preview_revision bundles no posting move.
 */
import type { Principal } from '../platform/principal.js';
import { endorseMove, previewEndorsementMove } from './endorse.js';
import { isRewriteRevision, previewRewriteMove, rewriteMove } from './rewrite.js';

type IssueRequest = { revisionId: string; policyId?: string };
type OwnsRevision = (principal: Principal, revisionId: string) => Promise<boolean>;
type Answer = Promise<Record<string, unknown>>;

const ISSUED_BY: ReadonlyArray<{ owns: OwnsRevision; move: (principal: Principal, request: IssueRequest) => Answer }> = [{ owns: isRewriteRevision, move: rewriteMove }];
const PREVIEWED_BY: ReadonlyArray<{ owns: OwnsRevision; move: (principal: Principal, revisionId: string) => Answer }> = [{ owns: isRewriteRevision, move: previewRewriteMove }];

async function kindOf<Kind extends { owns: OwnsRevision }>(kinds: readonly Kind[], principal: Principal, revisionId: string): Promise<Kind | undefined> {
  for (const kind of kinds) if (await kind.owns(principal, revisionId)) return kind;
  return undefined;
}

/** Commits an open revision by its kind's move (issue with revision_id); an endorsement otherwise. */
export async function issueOpenRevisionMove(principal: Principal, request: IssueRequest): Answer {
  return ((await kindOf(ISSUED_BY, principal, request.revisionId))?.move ?? endorseMove)(principal, request);
}

/** What committing an open revision would do, writing nothing (preview_revision). */
export async function previewOpenRevisionMove(principal: Principal, revisionId: string): Answer {
  return ((await kindOf(PREVIEWED_BY, principal, revisionId))?.move ?? previewEndorsementMove)(principal, revisionId);
}
