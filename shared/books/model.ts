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

export const ACCOUNTS = [
  { code: '1000', name: 'Cash' },
  { code: '1100', name: 'Premium receivable' },
  { code: '1150', name: 'Premium written not yet billed' },
  { code: '2100', name: 'Unearned premium' },
  { code: '2200', name: 'Fees and taxes payable' },
  { code: '2300', name: 'Refunds payable' },
  { code: '2400', name: 'Commission payable' },
  { code: '4000', name: 'Earned premium' },
  { code: '5000', name: 'Commission expense' },
] as const;
export type AccountName = (typeof ACCOUNTS)[number]['name'];

export interface JournalLine {
  date: string;
  account: AccountName;
  debit: Cents;
  credit: Cents;
  memo: string;
}
