/**
 * The seams where other areas join a policy's moves. Each move (issue, cancel, rescind)
 * builds what it decided as plain data, its event, and hands it to every contribution the
 * wiring module (shared/moves.ts) registered for that move; each contribution answers writes
 * of its own area that land in the SAME transaction as the move, or none of them do. What a
 * move reads from an area it must not import (billing's reference data and figures) comes
 * through MoveReads, wired in the same place. Only data, types and the errors the moves share.
 */
import { BusinessRuleError } from '../platform/errors.js';
import type { TransactionWrite } from '../platform/transactions.js';

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
import type { RevisionSnapshot } from '../policies/index.js';

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
  agencyId?: string;
  /** The policy's contacts (who reaches its notes). */
  contactIds: string[];
  namedInsuredContactIds: string[];
  /** What the move's note records. */
  summary: string;
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
  agencyId?: string;
  contactIds: string[];
  namedInsuredContactIds: string[];
  summary: string;
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
}

/** store_renewal_status decided a term's renewal. */
export interface RenewalStatusDecision extends TermDecision {
  status: 'Renew' | 'Non-Renewal';
  reason: { id: string; name: string } | null;
  description: string;
}

/** Every move's event, by the move's name: a new move adds its line here. */
export interface MoveEvents {
  issue: CommittedRevision;
  cancel: CancelledTerm;
  rescind: RescindedCancellation;
  renew: RenewedTerm;
  renewalInForce: TermDecision;
  expire: TermDecision;
  renewalStatus: RenewalStatusDecision;
  reinstate: ReinstatedTerm;
}
export type MoveName = keyof MoveEvents;

/** One area's part in a move: its writes for the move's one transaction. */
export type Contribution<Event> = (event: Event) => Promise<TransactionWrite[]>;

/** The contributions of every move, registered once (shared/moves.ts). */
export type MoveContributions = { readonly [Move in MoveName]: ReadonlyArray<Contribution<MoveEvents[Move]>> };

/** What a cancellation costs or returns, from the area that bills it. */
export interface CancellationFigures {
  returnPremiumCents: number;
  /** Cancelled on the first day: nothing earned. */
  flat: boolean;
}

/** What the moves read from areas that themselves contribute to the moves (and so cannot be imported by them). */
export interface MoveReads {
  /** The cancel reason of an id, from the reference data; undefined for none. */
  cancelReason(reasonId: string): Promise<{ id: string; name: string; reinstatable: boolean } | undefined>;
  /** The return premium of cancelling a term on a date, from the revision in force. */
  cancellationFigures(question: { revisionId: string; effectiveDate: string; expirationDate: string; cancelDate: string }): Promise<CancellationFigures>;
  /** The billing schedule a term's account is on (a renewal keeps it); undefined when the term has no account. */
  billingScheduleOf(policyId: string, termId: string): Promise<string | undefined>;
}

/** Everything the moves are wired with, once. */
export interface MoveWiring {
  contributions: MoveContributions;
  /** The endorse move's contributions: each answers its writes and what a preview shows of them. */
  endorsement: readonly EndorsementContribution[];
  reads: MoveReads;
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
  /** What the move's note records. */
  summary: string;
}

/** What one area would do for an endorsement: its writes (none when previewing) and what a preview shows of them. */
export interface EndorsementEffect {
  area: string;
  writes: TransactionWrite[];
  preview: unknown;
}

export type EndorsementContribution = (endorsed: EndorsedRevision, options: { preview: boolean }) => Promise<EndorsementEffect>;
