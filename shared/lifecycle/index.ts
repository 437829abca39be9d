/**
 * The lifecycle area's public face: what other areas may use of it. Anything not exported here
 * (its store's internals, its keys) is the area's own; test/unit/import-graph.test.ts holds to it.
 * An area joining a move takes the move's facts and the contribution type from here.
 */
export { InvalidCancelDateError } from './model.js';
export type { BoundQuote, CancellationFigures, CancelledTerm, CommittedRevision, EndorsedChange, EndorsedItem, EndorsedRevision, ExpiredTerm, IssuedRevision, MoveReads, ReinstatedTerm, CancellationAhead, TermAsRead, TermAhead, RenewalInForce, RenewalRewrite, RenewalStatusDecision, RenewedTerm, RescindedCancellation, ReversedRevision, RewrittenPolicy, TermDecision, TransactionWrite } from './model.js';
export type { AreaPart, Contribution, JoinMode, ReadsAhead, Wired } from './joining.js';
export type { cancelPolicy } from './cancel.js';
export type { rescindCancellation } from './rescind.js';
export { previewRenewal, type RenewalPreview, type SkippedRenewal } from './renew.js';
export { discardEndorsement, openEndorsement, policySnapshot, revisionStatus } from './endorse.js';
export { decideRenewalBatch, planRenewalRun, renewalBatchMessage } from './nightly-renewals.js';
export { RENEWAL_DECISION_PERMISSION } from './renew.js';
export { planRenewalRunByHand } from './renewal-run-by-hand.js';
export { REWRITE_TYPES, openRewrite } from './rewrite.js';
