/**
 * What the policies area stores. Money is integer cents (`...Cents`), dates are
 * `YYYY-MM-DD`, instants ISO 8601. Static attributes of items and sub lines are
 * copied from the catalog when they are added, so a later catalog change does
 * not rewrite a quote.
 */
import type { Cents } from '../platform/money.js';
import type { RevisionUnderwriting } from './underwriting-fields.js';

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
  version: number;
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
  version: number;
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
  /** Number given to the next `Property #n`. */
  riskSequence: number;
  transactionType: 'new_business' | 'rewrite';
  /** Underwriting of the revision (review state, last STP result, last loss analysis): see underwriting-fields.ts. */
  underwriting?: RevisionUnderwriting;
  version: number;
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
