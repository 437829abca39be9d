/**
 * The rewrite move's wiring: the new term and its committed revision (policies), billing's cancellation rows, Transfer rows and the new term's
 * account; the two notes; policy.rewritten; the new term's Declaration and search record, as an
 * issue's. Opening a rewrite (rewrite_policy) takes no contribution.
 */
import { booksAtRewrite } from '../books/joins-moves.js';
import { commissionsAtRewrite } from '../commissions/joins-moves.js';
import { billingAtRewrite, billingScheduleOf, cancelReason, cancellationFigures } from '../billing/joins-moves.js';
import { declarationAtRewrite } from '../documents/joins-moves.js';
import { eventsAtRewrite } from '../events/joins-moves.js';
import { wired } from '../lifecycle/joining.js';
import { isRewriteRevision, isRewriteSnapshot, issueRewrite, openRewrite, previewRewrite, type RewriteWiring } from '../lifecycle/rewrite.js';
import { noteOfRewrite } from '../notes/joins-moves.js';
import { policiesAtRewrite } from '../policies/joins-moves.js';
import { searchAtRewrite } from '../search/joins-moves.js';

export const rewriteWiring: RewriteWiring = {
  rewrite: [policiesAtRewrite, billingAtRewrite, noteOfRewrite, eventsAtRewrite, booksAtRewrite, commissionsAtRewrite],
  issue: [declarationAtRewrite, searchAtRewrite],
  reads: { cancelReason, cancellationFigures, billingScheduleOf },
};

export const rewriteMove = /* @__PURE__ */ wired(rewriteWiring, issueRewrite);
export const previewRewriteMove = /* @__PURE__ */ wired(rewriteWiring, previewRewrite);
export { isRewriteRevision, isRewriteSnapshot, openRewrite };
