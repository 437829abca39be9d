/**
 * The books' model: the monthly aggregates the moves keep (per month and group, integer cents),
 * a term's earning record (what it has written, as layers that earn daily pro rata), the closed
 * months, and the journal's chart of accounts. See docs/accounting.md.
 */
import type { Cents } from '../platform/money.js';

/** The finest group the books keep figures by; a report rolls them up to the dimensions asked. */
export interface BooksGroup {
  state: string;
  line: string;
  policyType: string;
  agency: string;
  rateVersion: string;
}

export const GROUP_DIMENSIONS = ['state', 'line', 'policy_type', 'agency', 'rate_version'] as const;
export type GroupDimension = (typeof GROUP_DIMENSIONS)[number];

/**
 * The counters a move adds to its month and group. Written premium by kind; fees, taxes and
 * surcharges written; earned premium; what the account history billed (every row but payments
 * and refunds), collected (payments net of NSF reversals) and refunded (refunds paid out); the
 * change of the policies in force; agency commission (booksOfCommission). Balances (unearned, receivable, in force) are their running sums.
 */
export const COUNTERS = [
  'writtenNewBusiness', 'writtenEndorsements', 'writtenRenewals', 'writtenCancellations', 'writtenReinstatements', 'writtenRewrites',
  'feesAndTaxes', 'earned', 'billed', 'collected', 'refunded', 'inForceChange', 'commission',
] as const;
export type Counter = (typeof COUNTERS)[number];
export type Counters = Partial<Record<Counter, Cents>>;

/** A written amount earning daily pro rata from `from` (first day) to `to` (exclusive); from = to earns whole on that day. */
export interface EarningLayer {
  cents: Cents;
  from: string;
  to: string;
  /** What wrote it (issue, endorsement, cancellation, ...): for a reader of the record. */
  kind: string;
}

/** A term's earning: its written layers, how far the nightly has earned it and how much that was. */
export interface TermEarning {
  policyId: string;
  termId: string;
  group: BooksGroup;
  /** From this day on the term earns nothing more: everything written is earned (a cancellation's date). */
  stopsAt: string | null;
  layers: EarningLayer[];
  /** Earned through this day (inclusive); the day before the term's first day when nothing is. */
  earnedThrough: string;
  /** What the books hold earned for it, through earnedThrough. */
  earnedCents: Cents;
  /** The last day anything earns: the record leaves the nightly's list after it. */
  lastDay: string;
  version: number;
}

/** One line of the premium report: a month, a group (the dimensions asked), its figures. */
export interface PremiumReportLine {
  month: string;
  /** `current` for the month's own activity; `prior_period_adjustments` for moves dated into a closed month that landed here. */
  kind: 'current' | 'prior_period_adjustments';
  group: Partial<Record<GroupDimension, string>>;
  written: {
    new_business: number; endorsements: number; renewals: number; cancellations: number; reinstatements: number; rewrites: number; total: number;
  };
  earned: number;
  unearned_start: number;
  unearned_end: number;
  fees_and_taxes: number;
  billed: number;
  collected: number;
  refunded: number;
  commission: number;
  receivable_start: number;
  receivable_end: number;
  policies_in_force_end: number;
}

// ---------------------------------------------------------------- losses

/**
 * The finest group the books keep a claim's money by. Not the premium group: a claim knows no rate
 * version, and premium knows no catastrophe or accident year. The four dimensions both share
 * (state, line, policy type, agency) are what a loss ratio divides by (docs/accounting.md).
 */
export interface LossGroup {
  state: string;
  line: string;
  policyType: string;
  agency: string;
  /** The claim's catastrophe, `-` for none. */
  catastrophe: string;
  /** The year of the loss date. */
  accidentYear: string;
}

export const LOSS_GROUP_DIMENSIONS = ['state', 'line', 'policy_type', 'agency', 'catastrophe', 'accident_year'] as const;
export type LossGroupDimension = (typeof LOSS_GROUP_DIMENSIONS)[number];
/** The dimensions premium and losses are both kept by: a loss line's earned premium is that of these. */
export const SHARED_DIMENSIONS = ['state', 'line', 'policy_type', 'agency'] as const;

/**
 * The counters a claim's money adds to its month and loss group (integer cents, signed): paid
 * loss and expense (payments approved, less voids), the change of the outstanding case reserves by
 * cost type (a payment drawing them down, a close releasing them, a void bringing them back), the
 * carrier's share of recoveries by cost type, the change of the recovery reserves, the part of a
 * recovery passed on to the insured (his deductible), and claim checks cleared. Case reserves and
 * recovery reserves are their running sums, as unearned premium is written less earned.
 */
export const LOSS_COUNTERS = [
  'paidLoss', 'paidExpense', 'reserveChangeLoss', 'reserveChangeExpense', 'recoveredLoss', 'recoveredExpense',
  'recoveryReserveChange', 'deductibleReimbursed', 'checksCleared',
] as const;
export type LossCounter = (typeof LOSS_COUNTERS)[number];
export type LossCounters = Partial<Record<LossCounter, Cents>>;

/** What the books hear of a claim's money (the claims area's `ClaimMoneyEntry`, as the books read it). */
export interface ClaimMoney {
  kind: 'paid' | 'reserve_change' | 'recovered' | 'recovery_reserve_change' | 'deductible_reimbursed' | 'check_cleared';
  costType: 'loss' | 'expense';
  amountCents: Cents;
}

/** A claim's move as the books read it: when it was decided, the claim's dimensions, the money it moves. */
export interface ClaimMoneyMove {
  /** The decision instant: its date is the books date. */
  at: string;
  after: { claim: { claimId: string; state: string; lineId: string; policyTypeId: string; agencyId: string | null; catastropheId: string | null; lossDate: string } };
  money?: readonly ClaimMoney[];
}

/** One line of the loss report: a month, a group (the dimensions asked), its figures. */
export interface LossReportLine {
  month: string;
  kind: 'current' | 'prior_period_adjustments';
  group: Partial<Record<LossGroupDimension, string>>;
  paid_loss: number;
  paid_expense: number;
  reserve_change_loss: number;
  reserve_change_expense: number;
  case_reserves_start: number;
  case_reserves_end: number;
  recoveries: number;
  deductible_reimbursed: number;
  recovery_reserves_end: number;
  incurred_loss: number;
  incurred_expense: number;
  incurred_total: number;
  /** What the ratios divide by: the earned premium of the line's state, line, policy type and agency (as asked), in the same month and kind. */
  earned_premium: number;
  loss_ratio: number | null;
  loss_and_expense_ratio: number | null;
}

/** The loss columns of a premium report line (null when it is grouped by rate version, which losses are not kept by). */
export interface PremiumLossColumns {
  paid_loss: number | null;
  paid_expense: number | null;
  case_reserves_end: number | null;
  recoveries: number | null;
  incurred_loss: number | null;
  loss_ratio: number | null;
}

export const ACCOUNTS = [
  { code: '1000', name: 'Cash' },
  { code: '1100', name: 'Premium receivable' },
  { code: '1150', name: 'Premium written not yet billed' },
  { code: '2100', name: 'Unearned premium' },
  { code: '2200', name: 'Fees and taxes payable' },
  { code: '2300', name: 'Refunds payable' },
  { code: '2400', name: 'Commission payable' },
  { code: '2500', name: 'Loss and LAE reserves' },
  { code: '2600', name: 'Claim checks payable' },
  { code: '4000', name: 'Earned premium' },
  { code: '5000', name: 'Commission expense' },
  { code: '5100', name: 'Losses incurred' },
  { code: '5200', name: 'Loss adjustment expense' },
] as const;
export type AccountName = (typeof ACCOUNTS)[number]['name'];

export interface JournalLine {
  date: string;
  account: AccountName;
  debit: Cents;
  credit: Cents;
  memo: string;
}
