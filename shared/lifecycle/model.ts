/**
 * The seams where other areas join a policy's moves. Each move (issue, cancel) builds
 * what it did as plain data and hands it to every contribution wired in by its entry file;
 * each contribution answers writes of its own area that land in the SAME transaction as
 * the move, or none of them do. Only data here: no area imports another through this file.
 */

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
