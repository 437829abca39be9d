/**
 * The policies area's types: what it stores, what its services are asked, and what
 * it hands to other areas. Money is integer cents (`...Cents`), dates are
 * `YYYY-MM-DD`, instants ISO 8601. Static attributes of items and sub lines are
 * copied from the catalog when they are added, so a later catalog change does
 * not rewrite a quote.
 */
import type { RevisionUnderwriting } from './underwriting-fields.js';
import type { TransactionWrite } from '../platform/transactions.js';
import type { ContactSummary } from '../contacts/index.js';
import type { Cents } from '../platform/money.js';
import type { TERM_TYPES } from './terms.js';

export type RevisionState = 'open' | 'committed' | 'archived' | 'pending';
export type PersistStatus = 'normal' | 'copied' | 'conflicted' | 'rejected' | 'resolved';

/** Who is on a policy, by role; `contactIds` (everyone) drives `reaches()`. */
export interface PolicyContacts {
  creatorId: string;
  agentId: string | null;
  agencyId: string | null;
  namedInsuredIds: string[];
  additionalInterestIds: string[];
}

export interface UnderwritingAnswer {
  questionId: string;
  yesNoAnswer: string;
  explanation: string;
}

export interface UnderwritingOption {
  optionId: string;
  answer: unknown;
}

export interface PolicyRecord {
  entity: 'Policy';
  id: string;
  policyNumber: string;
  manualPolicyNumber: boolean;
  lineId: string;
  policyTypeId: string;
  agencyId: string | null;
  contactIds: string[];
  contacts: PolicyContacts;
  dateAdded: string;
  inceptionDate: string;
  activeRevisionId: string;
  activeTermId: string;
  active: boolean;
  rewritten: boolean;
  showApp: boolean;
  submitBound: boolean;
  flag: 'white' | 'orange' | 'black';
  systemTags: Array<{ id: string; name: string; value: string }>;
  policyGroupId: string | null;
  copiedFromRevId: string | null;
  copiedToRevId: string | null;
  submitReceiptEmail: string;
  submitReceiptName: string;
  submitConfirmEmail: string;
  submitConfirmName: string;
  externalSystemReference: string | null;
  transactionType: 'new_business' | 'rewrite';
  lastVisited: { params: Record<string, unknown>; revisionId: string | null; at: string } | null;
  /** Set when a requote replaced this quote: it answers as if it did not exist, its number freed of it. */
  retired?: RetiredQuote;
  /** A policy rewritten to a new account (rewrite_policy with new_policy_number): the policy it became. */
  rewrittenTo?: RewriteLink;
  /** A policy a rewrite made of another account's: the policy it came from. */
  rewrittenFrom?: RewriteLink;
  version: number;
}

/** What a requote leaves on the quote it replaced. */
export interface RetiredQuote {
  at: string;
  replacedByPolicyId: string;
  replacedByPolicyNumber: string;
}

export interface TermRecord {
  entity: 'PolicyTerm';
  id: string;
  policyId: string;
  effectiveDate: string;
  expirationDate: string;
  isRenewal: boolean;
  termLength: number;
  termType: string;
  renewalType: string;
  renewalStatus: string;
  renewalStatusDescription: string;
  manualReason: string;
  renewalStatusReasonId: string | null;
  revisionIds: string[];
  /**
   * Where the term stands on cancellation: `pending` (until cancelPendingDate, for
   * cancelReasonId) whoever set it, cancel_policy or the nightly job for non-payment; the
   * one record of it that retrieve_policy, search and the nightly job all read.
   */
  cancellationStatus?: 'pending' | 'cancelled' | null;
  cancelPendingDate?: string | null;
  cancelReasonId?: string | null;
  cancelDate?: string | null;
  /**
   * What the moves decide on of the revisions an endorsement opened or committed (state, date,
   * commit instant, status), kept on the term so that a policy's many revisions need not be read
   * to endorse it. A revision missing here (the one issued, a cancellation's) is read from its header.
   */
  revisionIndex?: Record<string, IndexedRevision>;
  /** The next term the renewal move made of this one (committed, or held for an underwriter's review). */
  renewal?: TermRenewal | null;
  /** On a renewal term: the term it renews. */
  renewedFromTermId?: string | null;
  /** The revision a cancellation added (archived if the policy is reinstated). */
  cancellationRevisionId?: string | null;
  /**
   * On a renewal term cancelled with the term it renews (flat, by that term's cancellation): that
   * term's id. Reinstating that term reinstates this one with it; a renewal cancelled on its own
   * has none and stays cancelled.
   */
  cancelledWithTermId?: string | null;
  /**
   * On a held renewal's term: the day it was archived with its revision, never having come into
   * force (its expiring term ended, was non-renewed or cancelled while it waited for an
   * underwriter). It is then no term of the policy: the policy's reads and moves pass over it
   * (terms.ts, liveTerms).
   */
  archivedOn?: string | null;
  /** Days a reinstatement with lapse left without cover. */
  lapses?: Array<{ from: string; to: string }>;
  /** Set when the term ended without a committed renewal: the day the nightly run found it expired. */
  expiredOn?: string | null;
  version: number;
}

/** What an expiring term keeps of its renewal. */
export interface TermRenewal {
  termId: string;
  revisionId: string;
  /** `held`: its premium rose past the carrier's threshold and it waits, open, for an underwriter. */
  state: 'committed' | 'held';
  /** The renewal move's decision date. */
  decidedOn: string;
  /** On the renewal term since its effective date: the policy's active term is the renewal's. */
  inForce?: boolean;
}

export interface IndexedRevision {
  revisionState: RevisionState;
  revisionDate: string;
  committedAt: string;
  policyStatus: string;
}

export interface RevisionRecord {
  entity: 'Revision';
  id: string;
  policyId: string;
  policyTermId: string;
  policyNumber: string;
  lineId: string;
  lineEffectiveDateId: string;
  policyTypeId: string;
  agencyId: string | null;
  contactIds: string[];
  contacts: PolicyContacts;
  revisionState: RevisionState;
  policyStatus: string;
  policyStatusReasonId: string | null;
  termStart: string;
  termEnd: string;
  cancelDate: string | null;
  commitDate: string | null;
  /** Who committed it and the instant (the move that committed it: issue, an endorsement or reversal, a renewal, a rewrite, a cancellation); absent on revisions committed before moves recorded it. */
  committed?: RevisionCommit;
  /** When the quote was bound (bind's instant): what was bound before a moratorium began still issues. */
  boundAt?: string;
  createDate: string;
  revisionDate: string;
  underwritingContactedDate: string | null;
  dateArchived: string | null;
  commissionRate: string;
  writtenFeeCents: Cents;
  writtenPremiumCents: Cents;
  annualFeeCents: Cents;
  annualPremiumCents: Cents;
  decDescription: string;
  description: string;
  grantMortgageeExtension: boolean;
  overrideCommission: boolean;
  printDec: boolean;
  underwritingContacted: boolean;
  builderPending: boolean;
  underwritingQuestions: UnderwritingAnswer[];
  underwritingOptions: UnderwritingOption[];
  creditReportPermissions: Record<string, unknown>;
  /** Underwriting of the revision (review state, last STP result, last loss analysis): see underwriting-fields.ts. */
  underwriting?: RevisionUnderwriting;
  /** Set on the revision of a quote a requote replaced (see PolicyRecord.retired). */
  retired?: RetiredQuote;
  /** Number given to the next `Property #n`. */
  riskSequence: number;
  transactionType: 'new_business' | 'rewrite' | 'renewal';
  /** The rate version it was last rated at (an endorsement copies it and keeps it: see shared/rating/versions.ts). */
  rateVersion?: { id: string; name: string; productVersion?: string };
  /** A renewal's revision: what the renewal move did to the expiring term's revision (see shared/lifecycle/renew.ts). */
  renewal?: RenewalFacts;
  /** Set on a mid-term change (new_revision): what it was copied from and, once issued, what it did. */
  endorsement?: EndorsementFacts;
  /** A rewrite revision (rewrite_policy): the new term it opens, issued by the rewrite move, never as an endorsement. */
  rewrite?: RewriteFacts;
  /**
   * How its parts are stored: all in one record beside the header (every revision created from
   * 2026-11-29 on), or absent: one item a part, as revisions created before were (parts-store.ts).
   */
  partsInOneRecord?: boolean;
  version: number;
}

/** Who committed a revision (a contact id, or the service's own job such as `nightly-renewals`) and when. */
export interface RevisionCommit {
  at: string;
  by: string;
}

/** What a rewrite revision records of the rewrite it opens. */
export interface RewriteFacts {
  rewriteType: 'full_term' | 'remainder_of_term' | 'new_term';
  /** The committed revision it was copied from, and that revision's term (the one the rewrite cancels). */
  baseRevisionId: string;
  fromTermId: string;
  /** The new term's dates. */
  effectiveDate: string;
  expirationDate: string;
  /** A rewrite to a new account: the number the new policy takes (allocated, or given by hand) and, when another, its named insured. */
  newPolicyNumber?: string;
  manualPolicyNumber?: boolean;
  /** The new policy's id, decided when the rewrite is opened (its preview and its issue name the same policy). */
  newPolicyId?: string;
  toContactId?: string;
}

/** The other side of a rewrite to a new account, on each policy: what it became, or what it came from. */
export interface RewriteLink {
  policyId: string;
  policyNumber: string;
  termId: string;
}

/** What a renewal revision records of how it was made. */
export interface RenewalFacts {
  /** The committed revision of the expiring term it was copied from (the one in force at expiry). */
  baseRevisionId: string;
  expiringTermId: string;
  /** The annual premium of the revision it renews, and the percent it changed by. */
  previousAnnualPremiumCents: Cents;
  premiumChangePercent: string;
  /** Items the product's renewal rules added (new mandatory ones) and removed (no longer offered), by name. */
  itemsAdded: string[];
  itemsRemoved: string[];
  held: boolean;
}

/** An endorsement's own record on its revision (see shared/lifecycle/endorse.ts). */
export interface EndorsementFacts {
  /** The committed revision in force on the revision date when the endorsement was opened. */
  baseRevisionId: string;
  /** Issued: the instant, which orders committed revisions of one date. */
  committedAt?: string;
  /** Issued: the additional (positive) or return (negative) premium and fees it billed. */
  premiumChangeCents?: Cents;
  feeChangeCents?: Cents;
  /** Issued out of sequence: the later revisions it was re-applied under. */
  reappliedRevisionIds?: string[];
  /** A later revision an earlier endorsement was slipped under: that endorsement's id. */
  reappliedUnder?: string[];
  /** A reversal (reverse_revision): the endorsement it undoes, which it restores the revision before. */
  reversesRevisionId?: string;
}

/** Address and description fields of a property, named as on the wire (spec 2.8). */
export const RISK_TEXT_FIELDS = [
  'address_line1', 'address_line2', 'address_city', 'address_state', 'address_zip',
  'gross_area', 'stories', 'type', 'year_built', 'property_val',
  'loss_history_report_content', 'loss_history_report_number', 'replace_contents', 'replace_loss', 'replace_other',
  'flood_zone_code', 'distance_to_coast', 'builder_ready_to_rate', 'loss_history_date_pulled', 'fire_district',
  'inspection_requested_date', 'next_inspection_date',
] as const;
export type RiskTextField = (typeof RISK_TEXT_FIELDS)[number];

export interface CountyRef {
  name: string;
  code: string;
  id: string;
}

export interface RiskRecord extends Partial<Record<RiskTextField, string | null>> {
  entity: 'Risk';
  id: string;
  revisionId: string;
  policyId: string;
  name: string;
  sequence: number;
  primary: boolean;
  dateAdded: string;
  addressAccuracy: 'poor' | 'fair' | 'great' | null;
  county: CountyRef | null;
  countySpecification: CountyRef | null;
  copyAddress: boolean;
  flag: 'white' | 'orange';
  latitude: number | null;
  longitude: number | null;
  fireDistrictDistance: number | null;
  hydrantDistance: number | null;
  isoPcData: Record<string, unknown>;
  approvedLimits: Record<string, unknown>;
  /** Answers of the per-property questions, by question id. */
  questions: Record<string, string>;
  tenants: unknown[];
  propertyGroupNumber: string | null;
  buildingNumber: string | null;
  /** The same property in every revision of the policy (its id in the revision it was first added to). */
  lineageId?: string;
}

export interface SubLineRecord {
  entity: 'SubLine';
  id: string;
  subLineId: string;
  inheritanceId: string;
  policyTypeId: string;
  revisionId: string;
  riskId: string | null;
  linkId: string | null;
  dateAdded: string;
  dateAddedMicro: string;
  category: 'policy' | 'property';
  default: boolean;
  mandatory: boolean;
  allowMultiples: boolean;
  resolved: boolean;
  name: string;
  description: string;
  statusReason: string;
  sortOrder: number;
  type: string;
  persistStatus: PersistStatus;
  /** The same sub line instance in every revision of the policy. */
  lineageId?: string;
}

export interface LineItemRecord {
  entity: 'LineItem';
  id: string;
  itemId: string;
  revisionId: string;
  riskId: string | null;
  subLineInstanceId: string | null;
  applyDate: string;
  dateAdded: string;
  dateAddedMicro: string;
  limitCents: Cents | null;
  /** The limit follows the catalog default (a percent of another limit) until it is set. */
  limitIsDefault: boolean;
  deductibleCents: Cents | null;
  writtenPremiumCents: Cents | null;
  annualPremiumCents: Cents | null;
  writtenFeeCents: Cents | null;
  annualFeeCents: Cents | null;
  prevAdjAmtCents: Cents;
  manual: boolean;
  resolved: boolean;
  allowMultiples: boolean;
  mandatory: boolean;
  showInBuilder: boolean;
  lossExposureGroup: number | null;
  sortOrder: number;
  builderObj: Record<string, unknown>;
  linkObj: Record<string, unknown>;
  ratingDetails: Record<string, unknown>;
  /** What steps of the trace read, by step name (the territory; the answer a condition read, with its explanation); absent when none says. */
  ratingBasis?: Record<string, string>;
  persistStatus: PersistStatus;
  statusReason: string;
  description: string;
  limitAvailability: string;
  name: string;
  category: 'policy' | 'property';
  type: string;
  /** Premiums given by an external rater (create_policy_from_externalquote) are kept. */
  premiumSource: 'calculated' | 'manual' | 'external' | null;
}

export interface MortgageeRecord {
  entity: 'Mortgagee';
  /** The x_contact_reference connecting the contact and the property. */
  id: string;
  revisionId: string;
  riskId: string;
  contactId: string;
  description: string;
  loanNum: string;
  type: string;
  decMortStatement: string;
}

/**
 * Finds the revision of a risk, sub line instance or mortgagee from its id alone. The
 * store derives it from the record it locates; no service writes one.
 */
export interface LocatorRecord {
  entity: 'Locator';
  id: string;
  kind: 'risk' | 'subline' | 'mortgagee';
  revisionId: string;
  policyId: string;
  riskId: string | null;
}

/** Everything stored in one revision's partition. */
export interface RevisionSnapshot {
  header: RevisionRecord;
  risks: RiskRecord[];
  subLines: SubLineRecord[];
  items: LineItemRecord[];
  mortgagees: MortgageeRecord[];
}

/** A record stored in a revision's partition. */
export type RevisionPart = RiskRecord | SubLineRecord | LineItemRecord | MortgageeRecord;

/**
 * What rating a revision changes, for a move to write in its own transaction (bind and issue of a
 * quote an edit left unrated): the header's totals and every item's figures and step trace.
 */
export interface RevisionRating {
  set: Partial<RevisionRecord>;
  items: LineItemRecord[];
}

// ---------------------------------------------------------------- writes handed between areas


/** A contact's link to a policy (the contacts area's record), written with the policy. */
export type ContactLinkWrite = TransactionWrite;

/** A new policy whole: the store writes it, with the items it derives, in one transaction. */
export interface NewPolicyBundle {
  policy: PolicyRecord;
  term: TermRecord;
  revision: RevisionRecord;
  parts: RevisionPart[];
  /** The contacts' links to the policy, so that a contact's aspect data lists it. */
  contactLinks: ContactLinkWrite[];
  /** The named insureds' names, in the order of `policy.contacts.namedInsuredIds`, for the search index (read from the contacts when absent). */
  namedInsuredNames?: string[];
  /**
   * Other writes that land with the policy or not at all: the contacts a quote creates
   * (its named insureds), the retirement of the quote a requote replaces.
   */
  handedWrites?: TransactionWrite[];
}

/** A change of a revision read at `header.version`: one transaction guarded by that version. */
export interface RevisionChange {
  /** Header attributes to set along with the version. */
  header?: Partial<Omit<RevisionRecord, 'id' | 'version' | 'entity'>>;
  /** New records of the revision's partition. */
  create?: RevisionPart[];
  /** Existing records written anew. */
  replace?: RevisionPart[];
  remove?: RevisionPart[];
  /** A versioned change of the revision's term, in the same transaction. */
  term?: { policyId: string; termId: string; expectedVersion: number; set: Partial<TermRecord> };
  policy?: { policyId: string; expectedVersion: number; set: Partial<PolicyRecord> };
  /** Other areas' writes that must land with the change, or not at all. */
  handedWrites?: TransactionWrite[];
}

// ---------------------------------------------------------------- what services are asked

export type TermType = (typeof TERM_TYPES)[number];

export interface CreatePolicyInput {
  policy_number?: string;
  manual_policy_number: boolean;
  inception_date?: string;
  effective_date?: string;
  term_type: TermType;
  expiration_date?: string;
  renewal_term_type: TermType;
  is_renewal: boolean;
  underwriting_questions?: UnderwritingAnswer[];
  underwriting_options?: UnderwritingOption[];
  as_agent: boolean;
  policy_type_id?: string;
  property_zip?: string;
  external_system_reference?: string;
}

/** Who creates a policy, as the policy rules need to know it. */
export interface PolicyCreator {
  contactId: string;
  /** The creator acts as an agent: it holds the Agent role, or asked `as_agent`. */
  isAgent: boolean;
  asAgent: boolean;
  agencyIds: string[];
  defaultAgency?: string | null;
}

export type AmountInput = string | number | null | undefined;

/** What an external quote brings beyond create_policy's parameters. */
export interface ExternalQuoteParts {
  transactionType: 'new_business' | 'rewrite';
  risks: ExternalRisk[];
  items: ExternalItem[];
  premiums: { annual_premium?: string | number; written_premium?: string | number; annual_fee?: string | number; written_fee?: string | number };
  fields: Record<string, unknown>;
}

export interface ExternalItem {
  item_id?: string;
  id?: string;
  name?: string;
  limit?: AmountInput;
  deductible?: AmountInput;
  premium?: AmountInput;
  annual_premium?: AmountInput;
  written_premium?: AmountInput;
}

export interface ExternalRisk {
  name?: string;
  fields?: Record<string, unknown>;
  questions?: Record<string, unknown>;
  items?: ExternalItem[];
  [field: string]: unknown;
}

/** One item's part of update_rating_information; `null` clears, `undefined` keeps. */
export interface RatingItemChange {
  id: string;
  limit?: AmountInput;
  deductible?: AmountInput;
  manual?: boolean;
  annual_premium?: AmountInput;
  loss_exposure_group?: number | null;
  builder_obj?: Record<string, unknown> | null;
}

/** What update_property_location may change; `null` clears, `undefined` keeps. */
export interface LocationChange {
  name?: string | null;
  address_line1?: string | null;
  address_line2?: string | null;
  address_city?: string | null;
  address_state?: string | null;
  address_zip?: string | null;
  flood_zone_code?: string | null;
  distance_to_coast?: string | null;
  year_built?: string | null;
  address_county?: string | null;
  county_specify?: string | null;
  latitude?: number | null;
  longitude?: number | null;
  copy_address?: boolean;
}

/** What the ZIP table says of a ZIP code, as the location rule reads it. */
export interface ZipAnswer {
  valid: boolean;
  zip: string;
  stateAbbr: string | null;
  cities: string[];
  counties: Array<{ name: string; fips: string; id: string }>;
}

/** create_policy_from_externalquote's request, as its entry file reads it. */
export interface ExternalQuoteRequest {
  quote: {
    policy_type_id?: string;
    fields: Record<string, unknown>;
    risks: ExternalRisk[];
    items: ExternalItem[];
    premiums: { annual_premium?: AmountInput; written_premium?: AmountInput; annual_fee?: AmountInput; written_fee?: AmountInput };
    underwriting_questions?: UnderwritingAnswer[];
  };
  inception_date?: string;
  effective_date?: string;
  term_type: TermType;
  expiration_date?: string;
  renewal_term_type: TermType;
  transaction_type: 'new_business' | 'rewrite';
  policy_number?: string;
  manual_policy_number: boolean;
  policy_type_id?: string;
  as_agent: boolean;
  underwriting_options?: UnderwritingOption[];
  external_system_reference?: string;
}

/**
 * A new policy checked whole and ready to write, but for its number: everything that can
 * refuse the request has been decided before a number is allocated.
 */
export interface PolicyDraft {
  policyId: string;
  termId: string;
  revisionId: string;
  input: CreatePolicyInput;
  lineId: string;
  lineEffectiveDateId: string;
  policyTypeId: string;
  policyTypeName: string;
  term: { inceptionDate: string; effectiveDate: string; expirationDate: string; termLength: number };
  contacts: PolicyContacts;
  contactIds: string[];
  underwritingQuestions: UnderwritingAnswer[];
  transactionType: 'new_business' | 'rewrite';
  fromExternalQuote: boolean;
  /** Premium totals an external quote states; a new quote's are zero until rated. */
  totals: Pick<RevisionRecord, 'annualPremiumCents' | 'writtenPremiumCents' | 'annualFeeCents' | 'writtenFeeCents' | 'builderPending'>;
  risks: RiskRecord[];
  subLines: SubLineRecord[];
  items: LineItemRecord[];
  createdAt: Date;
}

/** Where a new sub line or item goes, and when. */
export interface Placement {
  revisionId: string;
  riskId: string | null;
  policyTypeId: string;
  today: string;
  now: Date;
  linkId?: string | null;
}

// ---------------------------------------------------------------- what the rules answer

/** A sequence of numbers: one prefix, one year. */
export interface NumberSequence {
  prefix: string;
  year: number;
}

/** The dates of a new policy's first term. */
export interface NewTermDates {
  inceptionDate: string;
  effectiveDate: string;
  expirationDate: string;
  termLength: number;
}

/** A term after update_effective_and_expiration_date: its dates and the type and length deduced from them. */
export interface MovedTerm {
  effectiveDate: string;
  expirationDate: string;
  termType: TermType;
  termLength: number;
}

/** What creating a policy needs from outside: fresh ids and the ZIP table. */
export interface CreationServices {
  newId: () => string;
  lookupZip: (zip: string) => ZipAnswer;
}

/** A rating change of one item: the item as changed, the problems found, the per-property answers it carries. */
export interface ItemRatingChange {
  item: LineItemRecord;
  problems: string[];
  propertyAnswers?: Record<string, string>;
}

/** The items of a revision after update_rating_information's changes, and the per-property answers they bring. */
export interface RatingPlan {
  items: LineItemRecord[];
  answersByRisk: Map<string, Record<string, string>>;
  problems: string[];
}

/** What an addition puts on the revision: a sub line instance when one was added, and items. */
export interface Addition {
  subLine: SubLineRecord | null;
  items: LineItemRecord[];
}

/** What copy_risk copies from one property onto another. */
export interface RiskCopyOptions {
  copy_address: boolean;
  copy_rating: boolean;
  copy_mortgagees: boolean;
  copy_tenants: boolean;
}

/** The contacts a policy answer names, by id. */
export type ContactNames = ReadonlyMap<string, ContactSummary>;
