/**
 * The policies area's part in every move, joined like every other area's, listed first in each
 * move's wiring (shared/moves/): the policy's own records as the move leaves them (a bind's
 * submitted revision; an issue's commit; a cancellation; a rescission's term; a reinstatement's
 * term and revisions; an endorsement's commit, a reversal's mark, a change carried into the
 * renewal; a renewal made, committed, put in force, decided, or expired; a rewrite's old and new
 * terms). No face hands these writes out: a move reaches them only through its wiring. Each
 * names the facts it reads (the lifecycle builds on this area, so this area cannot import the
 * lifecycle's facts); the wiring type-checks them.
 */
import type { TransactionWrite } from '../platform/transactions.js';
import { bindWrites, cancellationWrites, issueWrites, reinstatementWrites, rescissionWrites, reversalMarkWrites, rewriteCommitWrites, type ReinstatementMove, type RewriteCommit } from './lifecycle-store.js';
import { endorsementCommitWrites, type RevisionRewrite } from './endorsement-store.js';
import { expiryWrites, heldRenewalCommitWrites, renewalInForceWrites, renewalRevisionRewriteWrites, renewalStatusWrites, renewalWrites, type ArchivedHeldRenewal, type ExpiringTermChange } from './renewal-store.js';
import type { LineItemRecord, PolicyRecord, RevisionCommit, RevisionRating, RevisionRecord, RevisionSnapshot, TermRecord } from './model.js';

interface CancelledTerm {
  outcome: 'pending' | 'cancelled';
  cancelDate: string;
  reasonId: string;
  decisionDate: string;
  decidedAt: string;
  decidedBy: string;
  /** The revision carrying the cancellation (when it takes effect). */
  revisionId: string;
  cancelledWithTermId?: string;
  cancellationRecords?: { term: TermRecord; inForceRevision: RevisionRecord; committed: readonly RevisionRecord[]; heldRenewal?: ArchivedHeldRenewal };
}

/** The term's cancellation: pending on the term, or taking effect (its revision added, those in force marked, a held renewal archived); nothing when the term keeps another pending one. */
function cancellationOf(cancelled: CancelledTerm): TransactionWrite[] {
  const records = cancelled.cancellationRecords;
  if (!records) return [];
  const archivedAt = cancelled.decidedAt.slice(0, 19).replace('T', ' ');
  return cancellationWrites({
    term: records.term,
    base: records.inForceRevision,
    others: records.committed,
    outcome: cancelled.outcome,
    cancelDate: cancelled.cancelDate,
    reasonId: cancelled.reasonId,
    decisionDate: cancelled.decisionDate,
    committed: { at: cancelled.decidedAt, by: cancelled.decidedBy },
    newRevisionId: cancelled.revisionId,
    ...(cancelled.cancelledWithTermId ? { withTermId: cancelled.cancelledWithTermId } : {}),
    ...(records.heldRenewal ? { heldRenewal: { ...records.heldRenewal, archivedAt } } : {}),
  });
}

/** A term cancelled (cancel_policy, the nightly job), or a renewal cancelled with the term it renews. */
export async function policiesAtCancellation(cancelled: CancelledTerm): Promise<{ area: 'policies'; writes: TransactionWrite[] }> {
  return { area: 'policies', writes: cancellationOf(cancelled) };
}

interface RewrittenPolicy {
  /** The old term's cancellation, when the rewrite cancels it. */
  cancelled?: CancelledTerm;
  /** The policy as read (its version guards the move to the new term). */
  policy: PolicyRecord;
  newTerm: TermRecord;
  /** The rewrite revision as stored (its version guards its commit), what the commit sets, and its items with their written figures. */
  openRevision: RevisionRecord;
  commit: Partial<RevisionRecord>;
  revision: { items: readonly LineItemRecord[] };
  /** An expired term brought back with a gap (nothing cancelled), and a rewrite to a new account's new policy. */
  leftTerm?: TermRecord;
  newPolicy?: RewriteCommit['newPolicy'];
}

/** The old term cancelled Rewritten (when it is cancelled), the new term (on the renewal watch), the rewrite revision committed onto it, the policy moved to it. */
export async function policiesAtRewrite(rewritten: RewrittenPolicy): Promise<{ area: 'policies'; writes: TransactionWrite[] }> {
  return {
    area: 'policies',
    writes: [
      ...(rewritten.cancelled ? cancellationOf(rewritten.cancelled) : []),
      ...rewriteCommitWrites({ policy: rewritten.policy, term: rewritten.newTerm, header: rewritten.openRevision, set: rewritten.commit, items: rewritten.revision.items, ...(rewritten.leftTerm ? { leftTerm: rewritten.leftTerm } : {}), ...(rewritten.newPolicy ? { newPolicy: rewritten.newPolicy } : {}) }),
    ],
  };
}

/** A quote bound: its revision submitted (bind). */
export async function policiesAtBind(bound: { revision: RevisionRecord; boundAt: string; rating?: RevisionRating }): Promise<{ area: 'policies'; writes: TransactionWrite[] }> {
  return { area: 'policies', writes: bindWrites(bound.revision, bound.boundAt, bound.rating) };
}

/** A pending cancellation withdrawn: the term no longer carries it (nothing here when none matching was pending). */
export async function policiesAtRescission(rescinded: { withdrawn: boolean; term: TermRecord }): Promise<{ area: 'policies'; writes: TransactionWrite[] }> {
  return { area: 'policies', writes: rescinded.withdrawn ? rescissionWrites(rescinded.term) : [] };
}

interface ReinstatedTerm {
  cancelDate: string;
  reinstatementDate: string;
  lapseDays: number;
  decidedAt: string;
  cancellationRecords: Pick<ReinstatementMove, 'term' | 'cancellation' | 'marked'>;
}

/** A term reinstated: no longer cancelled, the cancellation's revision archived (stamped with the decision), the days of a lapse kept on the term. */
export async function policiesAtReinstatement(reinstated: ReinstatedTerm): Promise<{ area: 'policies'; writes: TransactionWrite[] }> {
  const lapse = reinstated.lapseDays ? { from: reinstated.cancelDate, to: reinstated.reinstatementDate } : null;
  const archivedAt = reinstated.decidedAt.slice(0, 19).replace('T', ' ');
  return { area: 'policies', writes: reinstatementWrites({ ...reinstated.cancellationRecords, lapse, archivedAt }) };
}

interface ExpiredTerm {
  decisionDate: string;
  decidedAt: string;
  expiryRecords: { term: TermRecord; inForceRevision: RevisionRecord; heldRenewal?: ArchivedHeldRenewal };
}

/** A term expired: Expired and off the watch; a renewal still held archived with it (stamped with the decision). */
export async function policiesAtExpiry(expired: ExpiredTerm): Promise<{ area: 'policies'; writes: TransactionWrite[] }> {
  const archivedAt = expired.decidedAt.slice(0, 19).replace('T', ' ');
  return { area: 'policies', writes: expiryWrites({ ...expired.expiryRecords, on: expired.decisionDate, archivedAt }) };
}

interface EndorsedRevision {
  activeRevisionId?: string;
  endorsementRecords?: { policy: PolicyRecord; term: TermRecord; endorsement: RevisionRewrite; reapplied: readonly RevisionRewrite[] };
}

/** The endorsement committed (and the later revisions it is slipped under re-applied), the term and the policy's active revision moved; a preview, or a change carried into a renewal, writes nothing here. */
function endorsementOf(endorsed: EndorsedRevision, mode: { preview: boolean }): TransactionWrite[] {
  const records = endorsed.endorsementRecords;
  if (mode.preview || !records) return [];
  return endorsementCommitWrites({ ...records, activeRevisionId: endorsed.activeRevisionId! });
}

/** An endorsement issued: the policy's own writes of its commit. */
export async function policiesAtEndorsement(endorsed: EndorsedRevision, mode: { preview: boolean }): Promise<{ area: 'policies'; writes: TransactionWrite[] }> {
  return { area: 'policies', writes: endorsementOf(endorsed, mode) };
}

/** A change reversed: the reversing endorsement committed as any is, and the reversed endorsement names its reversal, once (a second reversal sent at the same time fails on it). */
export async function policiesAtReversal(reversal: EndorsedRevision & { reversesRevisionId: string; revisionId: string }, mode: { preview: boolean }): Promise<{ area: 'policies'; writes: TransactionWrite[] }> {
  return { area: 'policies', writes: mode.preview ? [] : [...endorsementOf(reversal, mode), ...reversalMarkWrites(reversal.reversesRevisionId, reversal.revisionId)] };
}

interface RenewalRewrite {
  renewalRevision: RevisionRecord;
  set: Partial<RevisionRecord>;
  items: readonly LineItemRecord[];
  storedItems: readonly LineItemRecord[];
}

/** An endorsement's change carried into the term's renewal: the renewal revision's totals and items rewritten (a preview writes nothing). */
export async function policiesAtRenewalRewrite(rewrite: RenewalRewrite, mode: { preview: boolean }): Promise<{ area: 'policies'; writes: TransactionWrite[] }> {
  return { area: 'policies', writes: mode.preview ? [] : renewalRevisionRewriteWrites({ header: rewrite.renewalRevision, set: rewrite.set, items: rewrite.items, storedItems: rewrite.storedItems }) };
}

interface IssuedRevision {
  commitDate: string;
  issueRecords: { revision: RevisionRecord; policy: PolicyRecord; commission?: Pick<RevisionRecord, 'commissionRate' | 'overrideCommission'>; committed: RevisionCommit; rating?: RevisionRating };
}

/** A bound quote issued: its revision committed (with the commission it records), the policy active, its term on the renewal watch. */
export async function policiesAtIssue(issued: IssuedRevision): Promise<{ area: 'policies'; writes: TransactionWrite[] }> {
  const { revision, policy, commission, committed, rating } = issued.issueRecords;
  return { area: 'policies', writes: issueWrites(revision, policy, { commitDate: issued.commitDate, committed }, commission, rating) };
}

interface RenewedTerm {
  decisionDate: string;
  revision: RevisionSnapshot;
  renewalRecords:
    | { made: { policy: PolicyRecord; expiring: ExpiringTermChange; term: TermRecord } }
    | { heldCommitted: { expiring: TermRecord; term: TermRecord; stored: RevisionRecord; set: Partial<RevisionRecord> } };
}

/**
 * A term renewed: the renewal's term and revision made, the expiring term pointing at it (the
 * policy moved to it when in force at once); or a held renewal committed, re-rated, on the watch,
 * the expiring term noting it.
 */
export async function policiesAtRenewal(renewed: RenewedTerm): Promise<{ area: 'policies'; writes: TransactionWrite[] }> {
  const records = renewed.renewalRecords;
  if ('made' in records) return { area: 'policies', writes: renewalWrites({ ...records.made, snapshot: renewed.revision }) };
  const { expiring, term, stored, set } = records.heldCommitted;
  return { area: 'policies', writes: heldRenewalCommitWrites({ expiring, term, header: stored, set, items: renewed.revision.items, decidedOn: renewed.decisionDate }) };
}

/** A renewal's term begun: the policy's active term and revision become the renewal's, the expiring term leaves the watch. */
export async function policiesAtRenewalInForce(inForce: { inForceRevisionId: string; inForceRecords: { policy: PolicyRecord; expiring: TermRecord; term: TermRecord } }): Promise<{ area: 'policies'; writes: TransactionWrite[] }> {
  return { area: 'policies', writes: renewalInForceWrites({ ...inForce.inForceRecords, activeRevisionId: inForce.inForceRevisionId }) };
}

interface RenewalStatusDecision {
  status: 'Renew' | 'Non-Renewal';
  reason: { id: string } | null;
  description: string;
  decisionDate: string;
  decidedAt: string;
  renewalStatusRecords: { term: TermRecord; heldRenewal?: ArchivedHeldRenewal };
}

/** A term's renewal decided (store_renewal_status): the term records it; a held renewal declined is archived, as at expiry. */
export async function policiesAtRenewalStatus(decided: RenewalStatusDecision): Promise<{ area: 'policies'; writes: TransactionWrite[] }> {
  const { term, heldRenewal } = decided.renewalStatusRecords;
  return {
    area: 'policies',
    writes: renewalStatusWrites({
      term,
      status: decided.status,
      reasonId: decided.reason?.id ?? null,
      description: decided.description,
      ...(heldRenewal ? { archiveHeld: heldRenewal } : {}),
      on: decided.decisionDate,
      archivedAt: decided.decidedAt.slice(0, 19).replace('T', ' '),
    }),
  };
}
