/**
 * Search's part in a policy's moves: the policy's search record follows each move in the move's
 * own transaction (the index never lags the policy), as a function of the move's facts. Listed
 * per move in shared/moves/. Each contribution names the facts it reads (a part of the move's
 * facts, lifecycle/model.ts) rather than importing them: the policies area, which the moves
 * build on, writes the search record of a new policy, so search cannot import the lifecycle.
 */
import {
  searchIndexWritesForCancellationPending,
  searchIndexWritesForRewrite,
  searchIndexWritesForRewriteToNewPolicy,
  searchIndexWritesForStatus,
  searchReviewStateChange,
  type IndexWrite,
} from './index-store.js';
import { getSearchRecord } from './store.js';

/** Search's part in a move (a lifecycle AreaPart). */
interface SearchPart {
  area: 'search';
  writes: IndexWrite[];
}

const part = (writes: IndexWrite[]): SearchPart => ({ area: 'search', writes });

interface OfPolicy {
  policyId: string;
}
interface BoundQuote extends OfPolicy {}
interface CommittedRevision extends OfPolicy {}
interface CancelledTerm extends OfPolicy {
  outcome: 'pending' | 'cancelled';
  cancelDate: string;
  yieldsToPending?: boolean;
  cancelledWithTermId?: string;
  reviewStateRestored?: string;
}
interface RescindedCancellation extends OfPolicy {
  withdrawn: boolean;
}
interface ReinstatedTerm extends OfPolicy {
  reinstatedWithTermId?: string;
}
interface RenewedTerm extends OfPolicy {
  inForce: boolean;
  unexpired: boolean;
  revisionId: string;
  effectiveDate: string;
  expirationDate: string;
}
interface TermDecision extends OfPolicy {
  reviewStateRestored?: string;
}
interface RenewalInForce extends OfPolicy {
  beginsCancelled: boolean;
  inForceRevisionId: string;
  effectiveDate: string;
  expirationDate: string;
}
interface EndorsedRevision extends OfPolicy {
  activeRevisionId?: string;
}

/** A quote bound: Submitted. */
export async function searchAtBind(bound: BoundQuote): Promise<SearchPart> {
  return part(searchIndexWritesForStatus(bound.policyId, 'Submitted'));
}

/** A policy issued: Active, its revision committed. */
export async function searchAtIssue(committed: CommittedRevision): Promise<SearchPart> {
  return part(searchIndexWritesForStatus(committed.policyId, 'Active', { revisionState: 'committed' }));
}

/**
 * A cancellation: pending, the record shows its date; taking effect, Cancelled (and the review
 * state of the revision in force again, when a held renewal was archived with it). A finding that
 * yields to another pending cancellation changes nothing here, and a renewal cancelled with its
 * term leaves the record to that term's cancellation (a transaction touches an item once).
 */
export async function searchAtCancellation(cancelled: CancelledTerm): Promise<SearchPart> {
  if (cancelled.yieldsToPending || cancelled.cancelledWithTermId) return part([]);
  if (cancelled.outcome === 'pending') return part(searchIndexWritesForCancellationPending(cancelled.policyId, cancelled.cancelDate));
  return part(searchIndexWritesForStatus(cancelled.policyId, 'Cancelled', { cancelPendingDate: null, ...(cancelled.reviewStateRestored !== undefined ? { reviewState: cancelled.reviewStateRestored } : {}) }));
}

/** A pending cancellation withdrawn: the record no longer shows it. */
export async function searchAtRescission(rescinded: RescindedCancellation): Promise<SearchPart> {
  return part(rescinded.withdrawn ? searchIndexWritesForCancellationPending(rescinded.policyId, null) : []);
}

/** A reinstatement: Active again (a renewal reinstated with its term leaves the record to that term's). */
export async function searchAtReinstatement(reinstated: ReinstatedTerm): Promise<SearchPart> {
  return part(reinstated.reinstatedWithTermId ? [] : searchIndexWritesForStatus(reinstated.policyId, 'Active', { cancelPendingDate: null }));
}

/** A renewal in force at once: the record moves to its term (status, active revision, dates); an expired policy renewed is Active again. */
export async function searchAtRenewal(renewed: RenewedTerm): Promise<SearchPart> {
  if (renewed.inForce) {
    return part(searchIndexWritesForStatus(renewed.policyId, 'Active', { revisionState: 'committed', activeRevisionId: renewed.revisionId, effectiveDate: renewed.effectiveDate, expirationDate: renewed.expirationDate }));
  }
  return part(renewed.unexpired ? searchIndexWritesForStatus(renewed.policyId, 'Active') : []);
}

/** A renewal's term begun: one update of the record, its status (Cancelled for a renewal cancelled on its own), active revision and the term's dates. */
export async function searchAtRenewalInForce(begun: RenewalInForce): Promise<SearchPart> {
  return part(
    searchIndexWritesForStatus(begun.policyId, begun.beginsCancelled ? 'Cancelled' : 'Active', {
      revisionState: 'committed',
      activeRevisionId: begun.inForceRevisionId,
      effectiveDate: begun.effectiveDate,
      expirationDate: begun.expirationDate,
    }),
  );
}

/** A term expired: Expired (and the review state of the revision in force again, when a held renewal was archived with it). */
export async function searchAtExpiry(expired: TermDecision): Promise<SearchPart> {
  return part(searchIndexWritesForStatus(expired.policyId, 'Expired', expired.reviewStateRestored !== undefined ? { reviewState: expired.reviewStateRestored } : {}));
}

/** A renewal decided: a held renewal declined is archived, and the record shows the review state of the revision in force again. */
export async function searchAtRenewalStatus(decided: TermDecision): Promise<SearchPart> {
  return part(decided.reviewStateRestored !== undefined ? searchReviewStateChange(decided.policyId, decided.reviewStateRestored) : []);
}

/** An endorsement committed: Active, the active revision the endorsement leaves; a change carried into a renewal leaves the record as it is. A preview shows nothing of search. */
export async function searchAtEndorsement(endorsed: EndorsedRevision, mode: { preview: boolean }): Promise<SearchPart> {
  if (mode.preview || endorsed.activeRevisionId === undefined) return part([]);
  return part(searchIndexWritesForStatus(endorsed.policyId, 'Active', { revisionState: 'committed', activeRevisionId: endorsed.activeRevisionId }));
}

interface RewrittenPolicy extends OfPolicy {
  policyNumber: string;
  fromTermId: string;
  cancelled?: unknown;
  namedInsuredNames: string[];
  policyTypeName: string;
  committed: { policyId: string; policyNumber: string; termId: string; revisionId: string; policyTypeId: string; effectiveDate: string; expirationDate: string };
  newPolicy?: { record: { contactIds: string[]; agencyId: string | null; dateAdded: string } };
}

/**
 * A rewrite: under the same number, the record moves to the new term and names the term it came
 * from; to a new account, the new policy's record is written and each side names the other (a
 * number search finds both). A preview shows nothing of search.
 */
export async function searchAtRewrite(rewritten: RewrittenPolicy, mode: { preview: boolean }): Promise<SearchPart> {
  if (mode.preview) return part([]);
  const { committed } = rewritten;
  const from = { policyId: rewritten.policyId, policyNumber: rewritten.policyNumber, termId: rewritten.fromTermId };
  // The new side is listed under its own policy type: a rewrite may have changed it.
  const moved = { activeRevisionId: committed.revisionId, effectiveDate: committed.effectiveDate, expirationDate: committed.expirationDate, policyTypeId: committed.policyTypeId, policyTypeName: rewritten.policyTypeName };
  if (!rewritten.newPolicy) return part(searchIndexWritesForRewrite(rewritten.policyId, { ...moved, rewrittenFrom: from }));
  const old = await getSearchRecord(rewritten.policyId);
  if (!old) throw new Error(`The search record of policy ${rewritten.policyNumber} is missing`);
  const { record } = rewritten.newPolicy;
  const { entity: _entity, tokens: _tokens, rewrittenTo: _to, rewrittenFrom: _from, ...searchable } = old;
  const created = {
    ...searchable,
    ...moved,
    policyId: committed.policyId,
    policyNumber: committed.policyNumber,
    status: 'Active',
    revisionState: 'committed',
    dateAdded: record.dateAdded,
    namedInsuredNames: rewritten.namedInsuredNames,
    agencyId: record.agencyId,
    contactIds: record.contactIds,
    cancelPendingDate: null,
    rewrittenFrom: from,
  };
  return part(searchIndexWritesForRewriteToNewPolicy(old, rewritten.cancelled ? 'Cancelled' : old.status, created, { policyId: committed.policyId, policyNumber: committed.policyNumber, termId: committed.termId }));
}
