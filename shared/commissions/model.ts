/** The commissions area's records: what an agency earns on the premium it writes. Only data and types. */
import type { BooksGroup } from '../books/index.js';

/** The rates an agency earns on a line in a state (`*`: every line, every state), in percent ("15", "12.5"). */
export interface CommissionSchedule {
  agencyId: string;
  /** A line id of the catalog, or `*` for every line. */
  lineId: string;
  /** A two-letter state, or `*` for every state. */
  state: string;
  newBusinessRate: string;
  renewalRate: string;
  setBy: string;
  setAt: string;
}

/** A term's commission terms: the rate it was written at (every later move of the term earns or charges back at it) and what a statement prints of it. */
export interface CommissionTerm {
  policyId: string;
  termId: string;
  policyNumber: string;
  agencyId: string;
  insured: string;
  /** Percent, as a decimal string. */
  rate: string;
  /** The override given at issue for this one policy (issue_info.commission_rate with override_commission). */
  overridden: boolean;
  /** What the latest cancellation charged back, restored by a reinstatement (0 when none stands). */
  standingChargebackCents: number;
  /** The return premium it was charged back on. */
  standingReturnPremiumCents: number;
  /** The books' group of the term (state, line, policy type, agency, rate version): where its commission is journalled. */
  booksGroup?: BooksGroup;
  /** New business or renewal commission (absent on terms written before it was kept: new business). */
  kind?: 'new_business' | 'renewal';
  /** What commission is paid on, fixed for the term by the carrier's setting when it was written (absent: written). */
  basis?: 'written' | 'collected';
  /** Collected basis: the term's written premium and everything it charges (premium and fees), net of its moves. */
  writtenPremiumCents?: number;
  chargesCents?: number;
  /** Collected basis: the payments applied to the term's account, net. */
  collectedCents?: number;
  /** Collected basis: the commission earned so far (the sum of the term's rows). */
  earnedCents?: number;
  version: number;
}

export type CommissionTransaction = 'New Business' | 'Renewal' | 'Endorsement' | 'Cancellation' | 'Reinstatement' | 'Collection' | 'Rewrite';

/** One policy transaction's commission, kept in its agency-month by the move that made it. */
export interface CommissionRow {
  rowId: string;
  agencyId: string;
  /** YYYY-MM of the move's decision date: the statement it appears on. */
  month: string;
  postedAt: string;
  policyId: string;
  termId: string;
  policyNumber: string;
  insured: string;
  transaction: CommissionTransaction;
  effectiveDate: string;
  /** The written premium the commission follows (negative: return premium). */
  premiumCents: number;
  rate: string;
  commissionCents: number;
}

/** A commission payment made to an agency (recorded by an Administrator): shown as paid on the statement of the month paid on. */
export interface CommissionPayment {
  paymentId: string;
  agencyId: string;
  /** YYYY-MM of paidOn. */
  month: string;
  paidOn: string;
  amountCents: number;
  /** The remittance's reference (check number, transfer id): once per agency. */
  reference: string;
  recordedBy: string;
  recordedAt: string;
}
