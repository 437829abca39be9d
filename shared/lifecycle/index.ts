/**
 * The lifecycle area's public face: what other areas may use of it. Anything not exported here
 * (its store's internals, its keys) is the area's own; test/unit/import-graph.test.ts holds to it.
 */
export { InvalidCancelDateError } from './model.js';
export type { CancellationFigures, CancelledTerm, CommittedRevision, Contribution, EndorsedChange, EndorsedItem, EndorsedRevision, EndorsementContribution, EndorsementEffect, MoveReads, ReinstatedTerm, RenewalStatusDecision, RenewedTerm, RescindedCancellation, TermDecision, TransactionWrite } from './model.js';
export type { Wired } from './moves.js';
export type { cancelPolicy } from './cancel.js';
export type { rescindCancellation } from './rescind.js';
