/**
 * What the claims area keeps: a claim (a loss reported on a policy, checked against the revision in
 * force on its loss date), its exposures (one coverage each, for one claimant), its people, its
 * dates and the due dates the state's clocks give them, every change with who and when, and the
 * carrier's catastrophes. Plain data and the area's errors.
 *
 * Money (reserves, payments, recoveries) is part two: it is kept as claim transactions of its own
 * beside these records, and the totals it needs live on the exposure (`totals`), so nothing here
 * is reshaped when money arrives.
 */
import type { Cents } from '../platform/money.js';
import { BusinessRuleError, NotFoundError } from '../platform/errors.js';

export type ClaimStatus = 'open' | 'closed' | 'reopened';
export const REPORTER_RELATIONS = ['insured', 'agent', 'claimant', 'other'] as const;
export type ReporterRelation = (typeof REPORTER_RELATIONS)[number];
export const CLAIM_CONTACT_ROLES = ['insured', 'claimant', 'public_adjuster', 'contractor', 'attorney', 'witness', 'mortgagee', 'vendor'] as const;
export type ClaimContactRole = (typeof CLAIM_CONTACT_ROLES)[number];
export const CLOSE_REASONS = ['with_pay', 'without_pay'] as const;
export type CloseReason = (typeof CLOSE_REASONS)[number];

/** A coverage of the revision at loss, as the claim records it. */
export interface ClaimCoverage {
  itemId: string;
  name: string;
  limitCents: Cents | null;
  deductibleCents: Cents | null;
  /** The property it covers (absent for a policy-level coverage). */
  riskId: string | null;
}

export interface CoverageAtLoss {
  status: 'in_force' | 'none_in_force';
  /** Why nothing was in force (before inception, after a cancellation, after the term, in a lapse). */
  reason: string | null;
  termId: string | null;
  termEffectiveDate: string | null;
  termExpirationDate: string | null;
  revisionId: string | null;
  revisionDate: string | null;
  coverages: ClaimCoverage[];
  /** The policy deductible, once per occurrence over the Section I property coverages. */
  deductibleCents: Cents | null;
}

export interface LossAddress {
  line1: string;
  line2: string;
  city: string;
  state: string;
  zip: string;
  county: string | null;
  countyCode: string | null;
}

export interface Reporter {
  name: string;
  relation: ReporterRelation;
  phone: string | null;
  email: string | null;
}

export interface StatusChange {
  status: ClaimStatus;
  at: string;
  by: string;
  reason: string | null;
}

/** A deadline a state's clock set for the claim, and whether it was met. */
export interface DueDate {
  clockId: string;
  what: string;
  /** The claim date it runs from (`notice`, `proof_of_loss_received`, ...) and that date. */
  from: string;
  fromDate: string;
  dueDate: string;
  calendar: 'calendar' | 'business';
  status: 'open' | 'met' | 'breached';
  metAt: string | null;
  /** What met it (the claim date, letter or move). */
  metBy: string | null;
  breachedAt: string | null;
}

export interface ClaimDateRecord {
  claimId: string;
  claimDateId: string;
  type: string;
  date: string;
  recordedAt: string;
  recordedBy: string;
}

export interface ClaimRecord {
  claimId: string;
  claimNumber: string;
  /** Whose number it is: `carrier` for one the service allocated, else the external system's name. */
  claimNumberOrigin: string;
  policyId: string;
  policyNumber: string;
  agencyId: string | null;
  /** Who reaches the claim besides its agency: the policy's contacts and the claimants. */
  contactIds: string[];
  insuredContactId: string | null;
  insuredName: string;
  lineId: string;
  policyTypeId: string;
  /** The property's state: the state's clocks and letters apply. */
  state: string;
  lossDate: string;
  lossTime: string | null;
  timeZone: string | null;
  reportedDate: string;
  perilCode: string;
  description: string;
  propertyId: string | null;
  lossAddress: LossAddress;
  reportedBy: Reporter;
  catastropheId: string | null;
  adjusterContactId: string | null;
  coverage: CoverageAtLoss;
  status: ClaimStatus;
  statusHistory: StatusChange[];
  denial: { reason: string; at: string; by: string } | null;
  dueDates: DueDate[];
  /** Reported within the duplicate window of these claims, and confirmed as new. */
  confirmedNewAgainst: string[];
  /**
   * The deductible ledger as claims written before the ledger records kept it (on the claim, so
   * every money move rewrote the claim). Present only on such a claim that has had a payment; its
   * first money move now moves it, the exposures' limit use and the payments' fingerprints into
   * their own records (ClaimDeductible, ClaimLimitUse, ClaimPaymentFingerprint) and drops it here.
   */
  deductibleLedger?: DeductibleLedger;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  version: number;
}

/** Per cost type, what part two's claim transactions add up to: kept on the exposure so a money move reads one record. */
export interface ExposureTotals {
  /** The outstanding case reserve: what is still expected to be paid. */
  reserveCents: Cents;
  /** Approved payments (a voided one taken back out). */
  paidCents: Cents;
  /** The carrier's share of recoveries received (the insured's deductible reimbursed is not counted). */
  recoveredCents: Cents;
  /** The recovery still expected (subrogation, salvage); absent on records written before part two. */
  recoveryReserveCents?: Cents;
}

export interface ExposureRecord {
  exposureId: string;
  claimId: string;
  coverageItemId: string;
  coverage: string;
  section: 'I' | 'II';
  limitCents: Cents | null;
  limitPer: 'occurrence' | 'person';
  deductibleApplies: boolean;
  claimantContactId: string | null;
  status: ClaimStatus;
  closeReason: CloseReason | null;
  history: StatusChange[];
  totals: { loss: ExposureTotals; expense: ExposureTotals };
  createdAt: string;
  createdBy: string;
  version: number;
}

/**
 * The policy deductible of one occurrence: taken from the first Section I payments until used up
 * (`appliedCents`), given back by a void, and reimbursed to the insured out of recoveries.
 */
export interface DeductibleLedger {
  appliedCents: Cents;
  reimbursedCents: Cents;
}

/** The claim's deductible ledger as its own record: what every move that takes, gives back or reimburses the deductible replaces at the version it read. */
export interface ClaimDeductible extends DeductibleLedger {
  claimId: string;
  version: number;
}

/**
 * What an exposure's limit has committed: its loss payments not voided, waiting approval included,
 * after the deductible. Kept for exposures whose coverage has a limit; absent: none used.
 */
export interface ClaimLimitUse {
  claimId: string;
  exposureId: string;
  usedCents: Cents;
  version: number;
}

/**
 * The payments not voided that share one identity (the same payees, gross amount and invoice
 * number) on a claim: a payment not confirmed as a repeat is refused while one is listed here.
 */
export interface ClaimPaymentFingerprint {
  claimId: string;
  fingerprint: string;
  /** Absent once every payment of it is voided. */
  paymentIds?: Set<string>;
}

export const COST_TYPES = ['loss', 'expense'] as const;
export type CostType = (typeof COST_TYPES)[number];
export const CLAIM_TRANSACTION_TYPES = ['reserve', 'payment', 'recovery', 'recovery_reserve'] as const;
export type ClaimTransactionType = (typeof CLAIM_TRANSACTION_TYPES)[number];
export const PAYMENT_STATUSES = ['pending_approval', 'approved', 'issued', 'void'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export const PAYMENT_METHODS = ['check', 'ach'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const RECOVERY_CATEGORIES = ['subrogation', 'salvage'] as const;
export type RecoveryCategory = (typeof RECOVERY_CATEGORIES)[number];

/**
 * One change of a claim's money, appended and never rewritten in its amounts: a reserve set or
 * released, a payment line (its status follows its payment's: pending_approval, approved, issued,
 * void), a recovery received, a recovery expected.
 */
export interface ClaimTransaction {
  transactionId: string;
  claimId: string;
  exposureId: string;
  coverage: string;
  type: ClaimTransactionType;
  costType: CostType;
  /**
   * Signed, in cents: for a reserve or recovery reserve the change of the outstanding amount; for
   * a payment line what the carrier pays (after the deductible); for a recovery what was received.
   */
  amountCents: Cents;
  /** A reserve's or recovery reserve's outstanding amount after it. */
  outstandingAfterCents?: Cents;
  status: PaymentStatus;
  /** What made it: `set` by a user, `default` when the exposure opened, `payment`, `final_payment`, `close`, `void`, `recovery`. */
  source: 'set' | 'default' | 'payment' | 'final_payment' | 'close' | 'void' | 'recovery';
  /** The payment it belongs to (payment lines, and the reserve rows a payment or its void moves). */
  paymentId?: string;
  /** A payment line: the gross amount and the deductible taken from it. */
  grossCents?: Cents;
  deductibleCents?: Cents;
  /** A recovery: its category, the part reimbursed to the insured, and the carrier's share. */
  category?: RecoveryCategory;
  deductibleReimbursedCents?: Cents;
  carrierShareCents?: Cents;
  description?: string | null;
  /** The date a recovery was received. */
  date?: string;
  by: string;
  at: string;
  /** Orders the rows one move appends at the same instant. */
  seq: number;
  reason: string | null;
}

/** One exposure's part of a payment. */
export interface PaymentLine {
  exposureId: string;
  coverage: string;
  costType: CostType;
  grossCents: Cents;
  deductibleCents: Cents;
  /** What the carrier pays on the exposure: gross less the deductible. */
  amountCents: Cents;
  transactionId: string;
  /** What the payment took off its cost type's outstanding reserve once approved (never below zero), and what a final one released besides: a void gives both back. */
  reserveLoweredCents: Cents;
  releasedCents: Cents;
}

export interface PaymentPayee {
  contactId: string;
  name: string;
  /** `payee` as the caller named it; `mortgagee` added as joint payee of a Dwelling or Other Structures loss payment. */
  as: 'payee' | 'mortgagee';
}

/** A payment (a check or a transfer): one or several exposures' lines, its payees and its life. */
export interface ClaimPayment {
  paymentId: string;
  claimId: string;
  claimNumber: string;
  /** `claim_payment` made by a user; `deductible_reimbursement` paid to the insured out of a recovery. */
  kind: 'claim_payment' | 'deductible_reimbursement';
  lines: PaymentLine[];
  amountCents: Cents;
  payees: PaymentPayee[];
  method: PaymentMethod;
  invoiceNumber: string | null;
  serviceFrom: string | null;
  serviceTo: string | null;
  final: boolean;
  status: PaymentStatus;
  /** The limits the maker's authority broke (a payment waiting approval). */
  brokenLimits: string[];
  madeBy: string;
  madeAt: string;
  approvedBy: string | null;
  approvedAt: string | null;
  issuedAt: string | null;
  issuedDate: string | null;
  checkNumber: string | null;
  traceNumber: string | null;
  clearedDate: string | null;
  voidedAt: string | null;
  voidedBy: string | null;
  voidReason: string | null;
  memo: string | null;
  version: number;
}

/** Finds a payment's or a transaction's claim from its id alone. */
export interface ClaimMoneyLocator {
  id: string;
  claimId: string;
  kind: 'payment' | 'transaction';
}

/** A payment issued in a year, listed by its issued date (vendor_payments_1099 and the like read a year without a scan). */
export interface ClaimPaymentByYear {
  year: string;
  issuedDate: string;
  paymentId: string;
  claimId: string;
  claimNumber: string;
  kind: ClaimPayment['kind'];
  amountCents: Cents;
  costTypes: CostType[];
  payees: PaymentPayee[];
  method: PaymentMethod;
  checkNumber: string | null;
  traceNumber: string | null;
  agencyId: string | null;
  contactIds: string[];
}

/** The counter claim check numbers (and ACH trace numbers) are drawn from. */
export interface ClaimCheckCounter {
  series: 'check' | 'ach';
  last: number;
  version: number;
}

/** A check number given to a payment: never a second payment with it. */
export interface ClaimCheckNumber {
  checkNumber: string;
  paymentId: string;
  claimId: string;
}

/** Finds an exposure's claim from the exposure's id alone. */
export interface ExposureLocator {
  exposureId: string;
  claimId: string;
}

export interface ClaimContactRecord {
  claimId: string;
  contactId: string;
  role: ClaimContactRole;
  name: string;
  addedAt: string;
  addedBy: string;
}

export interface ClaimChange {
  claimId: string;
  changeId: string;
  at: string;
  by: string;
  /** The move: reported, updated, closed, reopened, exposure_created, contact_added, ... */
  kind: string;
  changes: Array<{ field: string; from: unknown; to: unknown }>;
  reason: string | null;
}

/** The claim's summary, as a search listing and a policy's `britecore_claims` carry it. */
export interface ClaimSummary {
  claimId: string;
  claimNumber: string;
  policyId: string;
  policyNumber: string;
  agencyId: string | null;
  contactIds: string[];
  insuredName: string;
  lossDate: string;
  reportedDate: string;
  perilCode: string;
  status: ClaimStatus;
  state: string;
  adjusterContactId: string | null;
  catastropheId: string | null;
  termId: string | null;
}

/** One entry of a claim in a search listing: the dimension it is listed under and its value. */
export interface ClaimListing extends ClaimSummary {
  dimension: string;
  value: string;
}

export interface CatastropheRecord {
  catastropheId: string;
  title: string;
  pcsNumber: string | null;
  states: string[];
  /** County FIPS codes (5 digits); empty: the whole of each state. */
  counties: string[];
  from: string;
  to: string;
  moratoriumId: string | null;
  declaredBy: string;
  declaredAt: string;
  version: number;
}

/** The counter a year's claim numbers are drawn from. */
export interface ClaimNumberCounter {
  year: string;
  last: number;
  version: number;
}

/** A claim number taken: no second claim may carry it, external numbers included. */
export interface ClaimNumberRecord {
  claimNumber: string;
  claimId: string;
}

/** A deadline not yet met (open or breached) of a claim not closed, listed by state and due date for `claims/deadlines` and the nightly run. */
export interface DeadlineListing {
  state: string;
  dueDate: string;
  claimId: string;
  claimNumber: string;
  clockId: string;
  what: string;
  agencyId: string | null;
  contactIds: string[];
  /** When the nightly run flagged it breached (it stays listed, overdue, until met); absent while it is not. */
  breachedAt?: string | null;
}

export class ClaimNotFoundError extends NotFoundError {
  constructor(what: string) {
    super(what);
    this.name = 'ClaimNotFoundError';
  }
}

export class ClaimRuleError extends BusinessRuleError {
  constructor(message: string, data: unknown = null) {
    super(message, data);
    this.name = 'ClaimRuleError';
  }
}
