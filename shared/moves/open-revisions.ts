/**
 * The moves an open revision is committed by (issue with issue_info.revision_id) and previewed
 * by (preview_revision), chosen by the revision's kind: a kind with a move of its own (a rewrite
 * revision, rewrite_policy's) is listed once for committing (open-revision-commits.ts) and once
 * for previewing (here); any other open revision is an endorsement. The entry files ask this
 * module, so a move that opens revisions of its own kind joins here, not in them. Committing and
 * previewing keep lists apart: preview_revision bundles no posting move, and issue loads the
 * commits on the first call that commits an open revision, not at every cold start.
 */
import { moduleOnFirstUse } from '../platform/modules-on-first-use.js';
import type { Principal } from '../platform/principal.js';
import { previewEndorsementMove } from './endorse.js';
import { isRewriteRevision } from './rewrite.js';

const commits = /* @__PURE__ */ moduleOnFirstUse<typeof import('./open-revision-commits.js')>(new URL('./open-revision-commits.mjs', import.meta.url), new URL('./open-revision-commits.ts', import.meta.url));
/** A rewrite's preview plans the whole rewrite (the books, commissions, the new term): loaded by the first preview of a rewrite revision only. */
const rewriteMoves = /* @__PURE__ */ moduleOnFirstUse<typeof import('./rewrite.js')>(new URL('./rewrite.mjs', import.meta.url), new URL('./rewrite.ts', import.meta.url));

type IssueRequest = { revisionId: string; policyId?: string };
type OwnsRevision = (principal: Principal, revisionId: string) => Promise<boolean>;
type Answer = Promise<Record<string, unknown>>;

const PREVIEWED_BY: ReadonlyArray<{ owns: OwnsRevision; move: (principal: Principal, revisionId: string) => Answer }> = [
  { owns: isRewriteRevision, move: async (principal, revisionId) => (await rewriteMoves()).previewRewriteMove(principal, revisionId) },
];

async function kindOf<Kind extends { owns: OwnsRevision }>(kinds: readonly Kind[], principal: Principal, revisionId: string): Promise<Kind | undefined> {
  for (const kind of kinds) if (await kind.owns(principal, revisionId)) return kind;
  return undefined;
}

/** Commits an open revision by its kind's move (issue with revision_id); an endorsement otherwise. */
export async function issueOpenRevisionMove(principal: Principal, request: IssueRequest): Answer {
  return (await commits()).commitOpenRevision(principal, request);
}

/** What committing an open revision would do, writing nothing (preview_revision). */
export async function previewOpenRevisionMove(principal: Principal, revisionId: string): Answer {
  return ((await kindOf(PREVIEWED_BY, principal, revisionId))?.move ?? previewEndorsementMove)(principal, revisionId);
}
