/**
 * The billing area's model: what a policy is billed (premium and fees by how they are
 * earned), its installments, the account it is billed on (the account-history rows are
 * that account: charges, payments and their reversals), cancellation figures, lockbox
 * records and the non-payment state. Amounts are integer cents, dates `YYYY-MM-DD`.
 */
import type { Cents } from '../platform/money.js';
import type { BooksGroup } from '../books/index.js';
import type { BillingRules, BillingScheduleDefinition, CancelReason, CancellationRules } from '../catalog/index.js';

export type { BillingRules, BillingScheduleDefinition, CancelReason, CancellationRules };

/** Every billing and cancellation setting the rules read, from the catalog. */
export interface BillingSettings {
  schedules: BillingScheduleDefinition[];
  rules: BillingRules;
  cancelReasons: CancelReason[];
  cancellation: CancellationRules;
  minimumEarnedPremiumCents: Cents;
  nsfFeeCents: Cents;
  /** Fee a reinstatement assesses unless waived. */
  reinstatementFeeCents: Cents;
  /** The carrier's refund threshold: a credit above it is paid out. */
  refundThresholdCents: Cents;
}

// ---------------------------------------------------------------------------
// What is billed
// ---------------------------------------------------------------------------

/**
 * One billed amount of a term (an item's written premium or fee). `fullyEarned` amounts are
 * billed whole on the first installment and never returned on cancellation.
 */
export interface BillableItem {
  itemId: string;
  name: string;
  kind: 'premium' | 'fee';
  earning: 'proRata' | 'fullyEarned';
  writtenCents: Cents;
  /** A state's tax, surcharge or assessment: billed on a line of its own, named. */
  charge?: boolean;
}

/** Detail types of an installment (spec 2.11). */
export type InstallmentDetailType =
  | 'Premium'
  | 'Premium Fully Earned'
  | 'Premium Fully Billed'
  | 'Custom Fee Fully Earned'
  | 'Custom Fee Fully Billed'
  | 'Custom Fee Prorata'
  | 'Installment Fee';

export interface InstallmentDetail {
  type: InstallmentDetailType;
  amountCents: Cents;
  /** The tax, surcharge or assessment a fee line bills (each is a line of its own). */
  name?: string;
}

export interface Installment {
  /** 1 for the first installment. */
  number: number;
  billDate: string;
  dueDate: string;
  amountDueCents: Cents;
  details: InstallmentDetail[];
}

/** `retrieve_billing_schedule_options`: one billing schedule option on the wire (spec 2.11). */
export interface BillingScheduleOptionWire {
  id: string;
  label: string;
  installments: Array<{
    amountDue: number;
    billDate: string;
    dueDate: string;
    details: Array<{ amount: number; type: InstallmentDetailType }>;
  }>;
}

// ---------------------------------------------------------------------------
// The account: account-history rows
// ---------------------------------------------------------------------------

export type AccountEntryType =
  | 'Invoice'
  | 'Payment'
  | 'NSF Reversal'
  | 'NSF Fee'
  | 'Cancellation'
  | 'Return Premium'
  | 'Installment Fee'
  | 'Endorsement'
  | 'Reinstatement'
  | 'Reinstatement Fee'
  | 'Lapse Credit'
  /** Credit moved between two terms' accounts (a rewrite's return premium): the same amount on each, opposite signs; never a refund. */
  | 'Transfer'
  | 'Refund'
  | 'Surcharge Return'
  | 'Surcharge Reinstated';

/** How an invoice's amount divides (spec 2.11 `schedule`). */
export interface InvoiceSchedule {
  premiumCents: Cents;
  installmentFeeCents: Cents;
  customFeesCents: Cents;
}

/**
 * One row of a term's account history, as stored. The amount is the row's effect on the
 * balance the insured owes: charges are positive, payments and credits negative.
 */
export interface AccountEntry {
  id: string;
  type: AccountEntryType;
  /** The day the row takes effect: bill date of an invoice, deposit date of a payment. */
  date: string;
  /** The instant the row was recorded: orders the rows of one day. */
  postedAt: string;
  amountCents: Cents;
  summary: string;
  description: string;
  /** Who or what made the row: a contact id, `system`, `lockbox`, `nightly-billing`. */
  generatedBy: string;
  /** Status of the policy when the row was made. */
  policyStatus: string;
  /** The deliverable printed for the row (an invoice, a cancellation notice), if any. */
  fileKey: string | null;
  /** Charges: when they must be paid. An NSF reversal: the new due date of what it re-opens. */
  dueDate: string | null;
  billDate: string | null;
  cancelDate: string | null;
  schedule: InvoiceSchedule | null;
  /** An NSF reversal: the payment row it reverses. */
  reversesEntryId: string | null;
  /** An NSF reversal: whether missing the original due dates may still cancel the policy. */
  allowCancel: boolean | null;
  /** A fee that was waived: kept with amount 0 so the history shows it. */
  waived: boolean;
  /** A payment: its check number (lockbox payments are de-duplicated by it). */
  checkNumber: string | null;
  /** Installment number of an invoice. */
  installmentNumber: number | null;
  /**
   * An Endorsement row's additional premium, billed with the installments not yet billed: the
   * row moves the balance once; the ledger owes each share by its installment's due date.
   */
  installmentShares?: Array<{ installmentNumber: number; billDate: string; dueDate: string; amountCents: Cents }>;
}

/** `retrieve_account_history`: one record on the wire (spec 2.11). */
export interface AccountHistoryRecordWire {
  fileKey: string | null;
  amount: number;
  icon: string;
  date: string;
  balance: number;
  type: AccountEntryType;
  id: string;
  summary: string;
  data: {
    amount: number;
    schedule: { Premium: number; 'Installment Fee': number; 'Custom Fees': number } | null;
    details: {
      showDelete: boolean;
      cancelDate: string | null;
      paidInFull: boolean | null;
      billDate: string | null;
      description: string;
      generatedBy: string;
      policyStatus: string;
      showEditAndReprint: boolean;
      dirty: boolean;
      showWaive: boolean;
      dueDate: string | null;
    };
  };
}

export interface AccountHistoryPage {
  activePage: number;
  maxPages: number;
  records: AccountHistoryRecordWire[];
}

// ---------------------------------------------------------------------------
// The ledger: what is owed and what paid it
// ---------------------------------------------------------------------------

/** An amount owed by a due date (an invoice, an NSF fee, earned premium due on cancellation). */
export interface Charge {
  id: string;
  /** The account-history row type it came from: only unpaid invoices cancel for non-payment. */
  kind: AccountEntryType;
  billDate: string;
  dueDate: string;
  amountCents: Cents;
}

/** Money received (a payment) or credited (return premium). */
export interface Credit {
  id: string;
  date: string;
  amountCents: Cents;
  /** Set when the payment came back unpaid: it is then treated as never made. */
  reversal: { dueDate: string | null; allowCancel: boolean } | null;
}

export interface ChargeStanding extends Charge {
  paidCents: Cents;
  openCents: Cents;
}

// ---------------------------------------------------------------------------
// Cancellation
// ---------------------------------------------------------------------------

export interface ItemReturn {
  itemId: string;
  name: string;
  writtenCents: Cents;
  returnedCents: Cents;
}

export interface ReturnPremium {
  flat: boolean;
  daysInTerm: number;
  daysReturned: number;
  writtenPremiumCents: Cents;
  earnedPremiumCents: Cents;
  returnedPremiumCents: Cents;
  writtenFeesCents: Cents;
  /** Fees stay earned; only returned when the carrier's rules say so and the item is pro-rata. */
  returnedFeesCents: Cents;
  /** Per item, before the minimum earned premium; the reduction is `minimumEarnedAdjustmentCents`. */
  items: ItemReturn[];
  minimumEarnedAdjustmentCents: Cents;
}

// ---------------------------------------------------------------------------
// Lockbox
// ---------------------------------------------------------------------------

/** `retrieve_lockbox_matchfile_info`: one line of the matchfile (spec 2.11), amounts in pennies. */
export interface LockboxMatchRecord {
  policy_number: string;
  current_due_amount: number;
  minimum_acceptable_amount: number;
  always_reject_flag: boolean;
}

export interface LockboxTransactionResult {
  result: 'success' | 'error';
  detail: string;
}

/** A transaction accepted for posting: the payment to record on the policy. */
export interface AcceptedLockboxPayment {
  policyNumber: string;
  checkNumber: string;
  amountCents: Cents;
}

// ---------------------------------------------------------------------------
// Non-payment
// ---------------------------------------------------------------------------

export type NonPaymentStatus = 'current' | 'cancellation_pending' | 'cancelled';

/** Where a policy stands on non-payment; the previous run's answer is the next run's input. */
export interface NonPaymentState {
  status: NonPaymentStatus;
  /** The day the policy is (or was) cancelled for non-payment. */
  cancelDate: string | null;
  /** The charge left unpaid. */
  chargeId: string | null;
  /**
   * Charges the carrier excused from non-payment (a pending cancellation rescinded by hand, a
   * policy reinstated): still owed, but the nightly job no longer pends or cancels for them.
   */
  excusedChargeIds?: string[];
}

/** What to do now: nothing, send the notice of cancellation, rescind it, or cancel. */
export type NonPaymentAction = 'none' | 'notify_cancellation_pending' | 'rescind' | 'cancel';

export interface NonPaymentDecision extends NonPaymentState {
  action: NonPaymentAction;
}

/**
 * What a nightly run did to one account, as its run record lists it (`npm run nightly` prints
 * them): pending (with the unpaid invoice's due date and the cancel date), rescinded, cancelled.
 */
export interface NightlyAccountDecision {
  policyNumber: string;
  decision: 'pending' | 'rescinded' | 'cancelled';
  /** The day the policy is (pending) or was (cancelled) cancelled. */
  cancelDate?: string;
  /** Pending: the due date of the invoice left unpaid. */
  dueDate?: string;
}

// ---------------------------------------------------------------------------
// The stored account of a term
// ---------------------------------------------------------------------------

/**
 * A term's billing account: what the rows need that is not a row (who may see it, which
 * schedule bills it, where it stands on non-payment). `balanceCents` is the sum of its rows,
 * kept with every posting so that lists need not read the rows; `version` rises with every change.
 */
export interface BillingAccount {
  policyId: string;
  termId: string;
  policyNumber: string;
  lockboxNumber: string;
  revisionId: string;
  scheduleId: string;
  effectiveDate: string;
  expirationDate: string;
  /** `Active`, `Cancellation Pending` or `Cancelled`: what the lockbox and the nightly job read. */
  policyStatus: string;
  agencyId: string | null;
  contactIds: string[];
  balanceCents: Cents;
  /**
   * The nightly job's own finding on non-payment, as it last decided (which unpaid invoice,
   * which cancel date): what tells it whether a finding is new. Whether a cancellation is
   * pending, and until when, is the term's (policies), whoever set it.
   */
  nonPayment: NonPaymentState;
  /** The nightly job looks at this account each day: a cancellation is pending on its term. */
  nightlyWatch?: boolean;
  /** Invoices a cancellation left unbilled: they are never billed, and no longer read as rows of the account. */
  voidedEntryIds?: string[];
  /** The books' group of the term (state, line, policy type, agency, rate version), fixed when the account opens: where its postings land in the books. */
  booksGroup?: BooksGroup | null;
  /** The last day the nightly job decided this account for. */
  nightlyDate: string | null;
  /**
   * Whether the areas joined to a payment (shared/moves/payment.ts) may write with this account's
   * payments: its term has an agency and was written while the carrier paid commission on collected
   * premium (fixed when the account opens, as the commission's basis is for the term). A lockbox file
   * posts such an account's payments alone, with their joins; every other account's without a read
   * more. Absent on accounts opened before it was kept: an account with an agency then may.
   */
  paymentsJoined?: boolean;
  /** The renewal term's account, once the renewal is billed: payments to the policy no longer fall back to this account. */
  laterTermId?: string;
  version: number;
}

/** Where a refund stands: owed (pending), approved for payment, paid out (issued), or withdrawn (voided). */
export type RefundState = 'pending' | 'approved' | 'issued' | 'voided';

/** A refund's payee: a contact of the policy, and the address its check is mailed to. */
export interface RefundPayee {
  contactId: string | null;
  name: string;
  /** Absent on refunds written before payees had roles: the named insured. */
  role?: 'named_insured' | 'mortgagee';
  mailingAddress?: { line1: string; line2?: string; city: string; state: string; zip: string };
}

/** A credit the carrier owes above the refund threshold, to be paid out to its payee. */
export interface Refund {
  refundId: string;
  policyId: string;
  termId: string;
  policyNumber: string;
  /** Who it is paid to (the named insured, or the mortgagee where the product says so) and where the check is mailed. */
  payee: RefundPayee;
  /** The policy's agency, if any: a caller who reaches an agency's policies alone lists only its refunds. */
  agencyId?: string | null;
  amountCents: Cents;
  /** Why it is owed: the move or posting that left the credit. */
  reason: string;
  state: RefundState;
  /** How it was paid out, once issued. */
  checkNumber?: string;
  achTrace?: string;
  voidReason?: string;
  /** The day of the move that owed it. */
  date: string;
  createdAt: string;
  version: number;
}

/** A payment posted to a term's account, as the areas joined to a payment see it (commissions on the collected basis). */
export interface PostedPayment {
  policyId: string;
  termId: string;
  policyNumber: string;
  agencyId: string | null;
  paymentId: string;
  /** What was collected (positive cents). */
  amountCents: Cents;
  date: string;
  postedAt: string;
}

/** An area's writes for a payment, committed in the payment's transaction (wired in shared/moves/payment.ts). */
export type PaymentJoin = (payment: PostedPayment) => Promise<import('../platform/transactions.js').TransactionWrite[]>;
