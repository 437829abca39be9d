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
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  version: number;
}

/** Per cost type, what part two's claim transactions add up to: kept on the exposure so a money move reads one record. */
export interface ExposureTotals {
  reserveCents: Cents;
  paidCents: Cents;
  recoveredCents: Cents;
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
