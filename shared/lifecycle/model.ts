/**
 * The seams where other areas join a policy's moves. Each move (issue, cancel) builds
 * what it did as plain data and hands it to every contribution wired in by its entry file;
 * each contribution answers writes of its own area that land in the SAME transaction as
 * the move, or none of them do. Only data here: no area imports another through this file.
 */
import type { RevisionSnapshot } from '../policies/model.js';

/** A revision as issue commits it: what billing (invoices, history) and documents (the Declaration) start from. */
export interface CommittedRevision {
  policyId: string;
  policyNumber: string;
  termId: string;
  revisionId: string;
  policyTypeId: string;
  effectiveDate: string;
  expirationDate: string;
  commitDate: string;
  annualPremiumCents: number;
  annualFeeCents: number;
  writtenPremiumCents: number;
  writtenFeeCents: number;
  billingScheduleId?: string;
  agencyId?: string;
  namedInsuredContactIds: string[];
}

/** A term as cancel_policy leaves it: what documents (the Notice of Cancellation) and notes start from. */
export interface CancelledTerm {
  policyId: string;
  policyNumber: string;
  termId: string;
  /** The revision carrying the cancellation's reason and date (written by the move; not readable before it lands). */
  revisionId: string;
  /** The revision in force when the cancellation was decided: what a notice prints of the policy. */
  inForceRevisionId: string;
  /** `pending` when only a cancel_pending_date was given; `cancelled` when it took effect. */
  outcome: 'pending' | 'cancelled';
  cancelDate: string;
  reason: string;
  /** Return premium in cents (0 while pending). */
  returnPremiumCents: number;
  agencyId?: string;
  namedInsuredContactIds: string[];
}

/** One write of a DynamoDB transaction, as lib-dynamodb's TransactWriteCommand takes it. */
export interface TransactionWrite {
  Put?: unknown;
  Update?: unknown;
  Delete?: unknown;
  ConditionCheck?: unknown;
}

export type IssueContribution = (committed: CommittedRevision) => Promise<TransactionWrite[]>;
export type CancellationContribution = (cancelled: CancelledTerm) => Promise<TransactionWrite[]>;

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
}

/** What one area would do for an endorsement: its writes (none when previewing) and what a preview shows of them. */
export interface EndorsementEffect {
  area: string;
  writes: TransactionWrite[];
  preview: unknown;
}

export type EndorsementContribution = (endorsed: EndorsedRevision, options: { preview: boolean }) => Promise<EndorsementEffect>;
