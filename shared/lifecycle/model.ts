/**
 * The facts of a policy's moves: what each move decided, as plain data, handed to every
 * contribution listed for it (lifecycle/joining.ts: the one way an area joins a move). Each
 * contribution answers writes of its own area that land in the SAME transaction as the move, or
 * none of them do. What a move reads from an area it must not import (billing's reference data
 * and figures) is declared in the move's wiring as reads (MoveReads). Only data, types and the
 * errors the moves share.
 */
import { BusinessRuleError } from '../platform/errors.js';
import type { TransactionWrite } from '../platform/transactions.js';
import type { ReadsAhead } from './joining.js';

export type { TransactionWrite };

/** A cancel date outside the term (the cancel move refuses it; billing's return premium rule too). */
export class InvalidCancelDateError extends BusinessRuleError {
  constructor(cancelDate: string, effectiveDate: string, expirationDate: string) {
    super(`cancel_date ${cancelDate} is outside the term ${effectiveDate} to ${expirationDate}`);
    this.name = 'InvalidCancelDateError';
  }
}

/** When and by whom a move was decided: everything it produces is dated by this, never by the wall clock. */
export interface Decision {
  /** The day decided for (YYYY-MM-DD): a nightly day re-run later still decides that day. */
  decisionDate: string;
  /** The instant its rows and notes are stamped with. */
  decidedAt: string;
  /** A contact id, or the service's own job (`nightly-billing`). */
  decidedBy: string;
}
import type { ArchivedHeldRenewal, ExpiringTermChange, LineItemRecord, PolicyRecord, RevisionCommit, RevisionPart, RevisionRating, RevisionRecord, RevisionRewrite, RevisionSnapshot, TermRecord } from '../policies/index.js';

/** A quote submitted (bind): what search (the status) and events (policy.bound) start from. */
export interface BoundQuote {
  policyId: string;
  policyNumber: string;
  termId: string;
  revisionId: string;
  agencyId?: string;
  /** The revision as rated and stored (its version guards the submit): what the policies area's part changes. */
  revision: RevisionRecord;
  /** When it was bound (the revision records it: a moratorium begun later does not stop its issue). */
  boundAt: string;
  /** The rating bind made of a quote an edit left unrated, stored with the submit (`revision` carries its totals). */
  rating?: RevisionRating;
}

/** A revision as issue commits it: what billing (invoices, history) and documents (the Declaration) start from. */
export interface CommittedRevision {
  policyId: string;
  policyNumber: string;
  termId: string;
  revisionId: string;
  policyTypeId: string;
  effectiveDate: string;
  expirationDate: string;
  /** The decision date of the issue. */
  commitDate: string;
  annualPremiumCents: number;
  annualFeeCents: number;
  writtenPremiumCents: number;
  writtenFeeCents: number;
  billingScheduleId?: string;
  agencyId?: string;
  namedInsuredContactIds: string[];
  /** The commission rate (percent) given for this one policy at issue (override_commission), instead of its agency's schedule. */
  commissionOverrideRate?: string;
  /**
   * What the move read before asking its contributions, as stored: the revision (header, items,
   * properties) and the policy. A contribution given them reads neither again; without them (a
   * rewrite's new term, not stored before its transaction) it reads what it needs itself.
   */
  asRead?: { revision: RevisionSnapshot; policy: Pick<PolicyRecord, 'policyNumber' | 'agencyId' | 'contactIds'> };
}

/**
 * A revision issue commits, as the policies area's part writes it: the records as read (their
 * versions guard the move) and the commission the revision records, when it is not the rated
 * revision's own (the rate the commissions part fixed, or issue's override).
 */
export interface IssuedRevision extends CommittedRevision {
  issueRecords: {
    revision: RevisionRecord;
    policy: PolicyRecord;
    commission?: Pick<RevisionRecord, 'commissionRate' | 'overrideCommission'>;
    /** Who issued it, and the instant. */
    committed: RevisionCommit;
    /** The rating issue made of a quote an edit left unrated, stored with the commit (`revision` carries its totals). */
    rating?: RevisionRating;
  };
}

/**
 * A term as a move read it, for the parts it asks: the term, its committed revisions with their
 * parts (in the term's order), and the reads the move began for its parts beside its own. Given
 * them, a part (and billing's figures) reads none of these again.
 */
export interface TermAsRead {
  term: TermRecord;
  revisions: readonly RevisionSnapshot[];
  reads: ReadsAhead;
}

/** What a part's read ahead (a move's wiring, `readAhead`) is told of the term the move is about to decide, before it decides. */
export interface TermAhead {
  policyId: string;
  termId: string;
  agencyId?: string;
}

/** A cancellation's term ahead: `pending` reads what a pending one posts, `cancelled` what one taking effect does. */
export interface CancellationAhead extends TermAhead {
  outcome: 'pending' | 'cancelled';
}

/** A term as a cancellation leaves it (cancel_policy, the nightly job): what billing, documents and notes start from. */
export interface CancelledTerm extends Decision {
  policyId: string;
  policyNumber: string;
  termId: string;
  termEffectiveDate: string;
  termExpirationDate: string;
  /** The revision carrying the cancellation's reason and date (written by the move; not readable before it lands). */
  revisionId: string;
  /** The revision in force when the cancellation was decided: what a notice prints of the policy. */
  inForceRevisionId: string;
  /** `pending` when only a cancel_pending_date was given (or the nightly job found an invoice unpaid); `cancelled` when it took effect. */
  outcome: 'pending' | 'cancelled';
  cancelDate: string;
  reasonId: string;
  reason: string;
  /** Return premium in cents (0 while pending). */
  returnPremiumCents: number;
  /** The unpaid invoice a pending cancellation for non-payment stems from (the nightly job's finding). */
  unpaidChargeId?: string | null;
  /** The term keeps the cancellation pending for another reason: this finding is billing's alone, the term and its search record stay as they are. */
  yieldsToPending?: boolean;
  /** A renewal term cancelled with the term it renews (that term's id): the policy's search record follows that term's cancellation. */
  cancelledWithTermId?: string;
  /** A renewal held for review archived with the cancellation: the review state of the revision in force, which the policy shows again. */
  reviewStateRestored?: string;
  agencyId?: string;
  /** The policy's contacts (who reaches its notes). */
  contactIds: string[];
  namedInsuredContactIds: string[];
  /** What the move's note records. */
  summary: string;
  /** What the move read of the policy and the term before asking its parts (cancel_policy, the nightly job); absent, a part reads what it needs. */
  asRead?: TermAsRead & { policy: Pick<PolicyRecord, 'policyNumber' | 'agencyId' | 'contactIds'> };
  /**
   * What the cancellation changes, as read (their versions guard the move): what the policies
   * area's part writes. Absent when the term keeps another pending cancellation (yieldsToPending).
   */
  cancellationRecords?: {
    term: TermRecord;
    /** The committed revision in force: it shows the cancellation from now on. */
    inForceRevision: RevisionRecord;
    /** The term's committed revisions: those after the cancel date carry it too. */
    committed: readonly RevisionRecord[];
    /** The term's renewal held for review, archived with the cancellation (stamped with the decision). */
    heldRenewal?: ArchivedHeldRenewal;
  };
}

/** A pending cancellation withdrawn (the nightly job: the unpaid balance was paid in time). */
export interface RescindedCancellation extends Decision {
  policyId: string;
  policyNumber: string;
  termId: string;
  agencyId?: string;
  contactIds: string[];
  summary: string;
  /** A cancellation for another reason stays pending on the term (only the one for this reason was withdrawn). */
  otherPendingRemains: boolean;
  /** The term's pending cancellation was withdrawn (false: nothing matching was pending, billing alone records the finding). */
  withdrawn: boolean;
  /** The term as read (its version guards the withdrawal): what the policies area's part changes. */
  term: TermRecord;
  /** Withdrawn by a person (rescind_cancellation), not by the nightly job finding the balance paid. */
  byHand?: boolean;
}

/** A cancelled term put back in force (reinstate_policy): what billing, documents and notes start from. */
export interface ReinstatedTerm extends Decision {
  policyId: string;
  policyNumber: string;
  termId: string;
  termEffectiveDate: string;
  termExpirationDate: string;
  /** The revision in force when the policy was cancelled, in force again: what the notice prints. */
  inForceRevisionId: string;
  cancelDate: string;
  cancelReason: string;
  /** Cover resumes on this day; without lapse, the cancel date. */
  reinstatementDate: string;
  /** Days without cover (0 without lapse): their premium is not charged. */
  lapseDays: number;
  feeAction: 'assess' | 'waive';
  /** A renewal term reinstated with the term it renews (that term's id): the policy's search record follows that term's reinstatement. */
  reinstatedWithTermId?: string;
  agencyId?: string;
  contactIds: string[];
  namedInsuredContactIds: string[];
  summary: string;
  /** What the cancellation changed, as read (their versions guard the move): what the policies area's part undoes. */
  cancellationRecords: {
    term: TermRecord;
    /** The revision the cancellation added. */
    cancellation: RevisionRecord | undefined;
    /** The committed revisions it marked with its date. */
    marked: readonly RevisionRecord[];
  };
}

/**
 * A term renewed (the nightly renewal run, process_renewals, reinstate_expired_policy), or a
 * held renewal committed once an underwriter moved it on: what billing (the renewal term's
 * account and invoices), documents (the Renewal Declaration and Billing Statement, or the
 * Conditional Renewal Notice of a held one) and notes start from.
 */
export interface RenewedTerm extends Decision {
  policyId: string;
  policyNumber: string;
  /** The term that ends, and the one that follows it. */
  expiringTermId: string;
  termId: string;
  revisionId: string;
  effectiveDate: string;
  expirationDate: string;
  /** Held for review: nothing is billed or declared until it is committed. */
  held: boolean;
  /** The renewal is in force at once (a run after the term ended, reinstate_expired_policy): the policy moves to its term. */
  inForce: boolean;
  /** The expiring term had been marked expired (reinstate_expired_policy): the policy is Active again. */
  unexpired: boolean;
  annualPremiumCents: number;
  annualFeeCents: number;
  writtenPremiumCents: number;
  writtenFeeCents: number;
  previousAnnualPremiumCents: number;
  premiumChangePercent: string;
  agencyId?: string;
  namedInsuredContactIds: string[];
  contactIds: string[];
  /** The billing schedule of the renewal: the expiring term's (read by the move from billing). */
  billingScheduleId?: string;
  /** The renewal revision as it is written (rated): what billing's installments come from. */
  revision: RevisionSnapshot;
  summary: string;
  /**
   * What the policies area's part writes, as read (their versions guard the move): a renewal
   * made (its new term and the expiring term's change; its revision is `revision`), or a held
   * one committed (its term, the revision as stored and what the commit sets; its items are `revision`'s).
   */
  renewalRecords:
    | { made: { policy: PolicyRecord; expiring: ExpiringTermChange; term: TermRecord } }
    | { heldCommitted: { expiring: TermRecord; term: TermRecord; stored: RevisionRecord; set: Partial<RevisionRecord> } };
}

/** A move that leaves only a note and perhaps a notice: a renewal taking effect, a term expiring, a renewal decision. */
export interface TermDecision extends Decision {
  policyId: string;
  policyNumber: string;
  termId: string;
  expirationDate: string;
  /** The revision in force: what a notice prints of the policy. */
  inForceRevisionId: string;
  agencyId?: string;
  contactIds: string[];
  namedInsuredContactIds: string[];
  summary: string;
  /** A renewal held for review archived by the move: the review state of the revision in force, which the policy shows again. */
  reviewStateRestored?: string;
}

/** A term ended without a committed renewal (the nightly run): the records the policies area's part moves, as read (their versions guard the move). */
export interface ExpiredTerm extends TermDecision {
  expiryRecords: {
    term: TermRecord;
    inForceRevision: RevisionRecord;
    /** A renewal still held for review, archived with the term. */
    heldRenewal?: ArchivedHeldRenewal;
  };
}

/** A renewal's term begun: the policy's active term and revision become the renewal's. */
export interface RenewalInForce extends TermDecision {
  effectiveDate: string;
  /** A renewal term cancelled on its own, moved to all the same: the policy reads Cancelled. */
  beginsCancelled: boolean;
  /** What the policies area's part moves, as read (their versions guard the move): the policy, the expiring term, the renewal's term (its revision in force is inForceRevisionId). */
  inForceRecords: { policy: PolicyRecord; expiring: TermRecord; term: TermRecord };
}

/** store_renewal_status decided a term's renewal. */
export interface RenewalStatusDecision extends TermDecision {
  status: 'Renew' | 'Non-Renewal';
  reason: { id: string; name: string } | null;
  description: string;
  /** What the policies area's part changes, as read (its version guards the move): the term, and a renewal held for review declined with it (archived, stamped with the decision). */
  renewalStatusRecords: { term: TermRecord; heldRenewal?: ArchivedHeldRenewal };
}

/** What a cancellation costs or returns, from the area that bills it. */
export interface CancellationFigures {
  returnPremiumCents: number;
  /** Cancelled on the first day: nothing earned. */
  flat: boolean;
  /** What the installments not yet billed held (premium and fees): voided with them. */
  unbilledCents: number;
  /** The Return Premium row's amount: negative a credit, positive earned premium due. */
  balanceChangeCents: number;
}

/** What the moves read from an area that itself joins the moves (billing, which cannot be imported by them): each move's wiring declares the reads it asks. */
export interface MoveReads {
  /** The cancel reason of an id, from the reference data; undefined for none. */
  cancelReason(reasonId: string): Promise<{ id: string; name: string; reinstatable: boolean } | undefined>;
  /** The return premium of cancelling a term on a date, from each revision of the term in force after it, and the account's change if decided on `decisionDate`. */
  cancellationFigures(question: { policyId: string; termId: string; revisionId: string; effectiveDate: string; expirationDate: string; cancelDate: string; decisionDate: string; asRead?: TermAsRead }): Promise<CancellationFigures>;
  /** The billing schedule a term's account is on (a renewal keeps it); undefined when the term has no account. */
  billingScheduleOf(policyId: string, termId: string): Promise<string | undefined>;
}

/** A claim of the policy as a renewal reads it from the claims area (which the lifecycle may not import: claims joins its moves' notes). */
export interface LossOnFile {
  claimNumber: string;
  lossDate: string;
}

/** What a renewal reads of the claims area: the policy's claims, every term's (the renewal counts those of its questions' years). */
export interface ClaimsReads {
  lossHistory(policyId: string): Promise<LossOnFile[]>;
}

/** One item's premium change, as an endorsement bills and prints it. */
export interface EndorsedItem {
  id: string;
  name: string;
  oldAnnualPremiumCents: number;
  newAnnualPremiumCents: number;
  /** Positive: additional premium; negative: return premium. */
  additionalPremiumCents: number;
}

/** A field the endorsement changed, as printed (`Dwelling limit`: `250,000.00` → `300,000.00`). */
export interface EndorsedChange {
  label: string;
  before: string;
  after: string;
}

/**
 * An endorsement as its move commits it (or previews it): what billing (the Endorsement row
 * and the re-spread), documents (the Endorsement Declaration) and notes start from.
 */
export interface EndorsedRevision {
  policyId: string;
  policyNumber: string;
  termId: string;
  revisionId: string;
  revisionDate: string;
  effectiveDate: string;
  expirationDate: string;
  /** The move's decision date: every row, note and document it produces is dated by it. */
  commitDate: string;
  committedAt: string;
  /** Additional (positive) or return (negative) premium over the term, and fees. */
  premiumChangeCents: number;
  /**
   * The premium change by the date it takes effect from, adding up to premiumChangeCents: one
   * layer from the endorsement's date, and, out of sequence, the change of each re-applied
   * revision's own from its date (what the books earn, day by day). Absent: all from revisionDate.
   */
  premiumChangeLayers?: Array<{ from: string; cents: number }>;
  feeChangeCents: number;
  annualPremiumCents: number;
  annualFeeCents: number;
  writtenPremiumCents: number;
  items: EndorsedItem[];
  changes: EndorsedChange[];
  /** Out of sequence: the later revisions reversed and re-applied on top of it. */
  reappliedRevisionIds: string[];
  agencyId?: string;
  namedInsuredContactIds: string[];
  /** The endorsement's revision as it is committed (re-rated on top of what landed before it): what its Declaration prints. */
  revision: RevisionSnapshot;
  /** The policy's contacts (who reaches its note). */
  contactIds: string[];
  /** Who endorsed it: the note's author. */
  decidedBy: string;
  /** The reads the move began for its parts beside its own (its wiring's readAhead); absent, a part reads what it needs. */
  reads?: ReadsAhead;
  /** What the move's note records. */
  summary: string;
  /** The policy's active revision once the endorsement lands (what its search record shows); absent for a change carried into a renewal, which leaves it where it is. */
  activeRevisionId?: string;
  /**
   * What the commit changes, as read (their versions guard the move): what the policies area's
   * part writes, with activeRevisionId. Absent for a change carried into a renewal (its revision
   * is rewritten as a RenewalRewrite).
   */
  endorsementRecords?: {
    policy: PolicyRecord;
    term: TermRecord;
    /** The endorsement itself (open until this commit). */
    endorsement: RevisionRewrite;
    /** Later committed revisions it is slipped under (out of sequence). */
    reapplied: readonly RevisionRewrite[];
  };
}

/**
 * A renewal revision rewritten by an endorsement of the term it renews (the change carried into
 * the next year, re-rated), committed or still held for review: what the policies area's part
 * writes, guarded at the version and in the state read.
 */
export interface RenewalRewrite {
  renewalRevision: RevisionRecord;
  set: Partial<RevisionRecord>;
  /** The items it holds after the rewrite; the stored ones not among them are removed. */
  items: readonly LineItemRecord[];
  storedItems: readonly LineItemRecord[];
}

/** A reversal (reverse_revision): an endorsement, dated as the one it undoes, restoring the revision before it. */
export interface ReversedRevision extends EndorsedRevision {
  /** The endorsement it reverses, and the date that endorsement took effect. */
  reversesRevisionId: string;
  reversesRevisionDate: string;
}

/**
 * A rewrite issued (rewrite_policy, then issue): the old term cancelled `Rewritten` (its facts
 * as a cancellation's), the new term committed (its facts as an issue's), and the return premium
 * moved from one account to the other. Each side's note names the other.
 */
export interface RewrittenPolicy extends Decision {
  policyId: string;
  policyNumber: string;
  agencyId?: string;
  contactIds: string[];
  rewriteType: 'full_term' | 'remainder_of_term' | 'new_term';
  /** The old term's cancellation (absent for an expired term brought back new_term: nothing is left to cancel). */
  cancelled?: CancelledTerm;
  committed: CommittedRevision;
  /** The rewrite revision as committed on the new term (its written figures): what its account bills. */
  revision: RevisionSnapshot;
  /** What the policies area writes of it: the policy as read, the new term, the open revision as stored and what its commit sets. */
  policy: PolicyRecord;
  newTerm: TermRecord;
  openRevision: RevisionRecord;
  commit: Partial<RevisionRecord>;
  /** The notes each side keeps, naming the other. */
  oldSideSummary: string;
  newSideSummary: string;
  /** The term the rewrite replaces. */
  fromTermId: string;
  /** An expired term brought back with a gap (new_term): nothing is cancelled, the rewrite revision only leaves its list. */
  leftTerm?: TermRecord;
  /** A rewrite to a new account (new_policy_number): the new policy and the revision's parts moved under it. */
  newPolicy?: { record: PolicyRecord; parts: readonly RevisionPart[] };
  /** The new side's named insureds' names (what its search record shows). */
  namedInsuredNames: string[];
  /** The new side's policy type's name in the catalog (a rewrite may change the type; what its search record shows). */
  policyTypeName: string;
}
