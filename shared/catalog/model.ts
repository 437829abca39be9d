/**
 * The catalog's model: roles, carrier settings and the product (line, policy types,
 * sub lines, items with their rating rules as data, questions, forms), and the pure
 * reading of catalog records into it. No I/O: rating and the policy rules read these.
 */
export interface Role {
  id: string;
  name: string;
  /** `all`: every record; `agency`: the caller's agencies; `own`: records naming the caller. */
  scope: 'all' | 'agency' | 'own';
  permissions: string[];
}

export interface CarrierSettings {
  policyNumberPrefix: string;
  liveDate: string;
  advancedSettings: Record<string, number | string | boolean>;
  /** Fee debited when a payment is returned for non-sufficient funds (decimal string). */
  nsfFee?: string;
  /** Fee a reinstatement assesses unless waived (decimal string; 25.00 when absent). */
  reinstatementFee?: string;
  /** A credit the carrier owes above this is paid out as a refund; at or below it stays on the account (decimal string; 25.00 when absent). */
  refundThreshold?: string;
  /** What agency commission is paid on: premium as written (the default), or premium as collected (earned as payments are applied, proportionally). */
  commissionBasis?: 'written' | 'collected';
}

/** What the carrier pays agency commission on: written premium unless its setting says collected (the one reading of `commissionBasis`). */
export function commissionBasisOf(settings: Pick<CarrierSettings, 'commissionBasis'>): 'written' | 'collected' {
  return settings.commissionBasis === 'collected' ? 'collected' : 'written';
}

// ---------------------------------------------------------------------------
// Billing and cancellation rules, as data (billing-schedules.json, cancel-reasons.json).
// ---------------------------------------------------------------------------

/** One installment of a billing schedule: its share of the premium, when it falls due, its fee. */
export interface ScheduledInstallment {
  /** Share of the premium, a decimal string such as "0.40". */
  factor: string;
  monthsAfterEffective: number;
  /** Fee added to this installment, a decimal string. */
  installmentFee: string;
}

export interface BillingScheduleDefinition {
  id: string;
  label: string;
  installments: ScheduledInstallment[];
}

/** The carrier's billing calendar, shared by every schedule. */
export interface BillingRules {
  billDaysBeforeDue: number;
  nonPaymentCancelDaysAfterDue: number;
  firstInstallmentBilledOnEffectiveDate: boolean;
}

export interface CancelReason {
  id: string;
  name: string;
  /** False for a reason a cancellation of which is never undone (a policy rewritten as another): reinstate_policy refuses it. Reinstatable when absent. */
  reinstatable?: boolean;
}

/** Why a policy is not renewed (store_renewal_status's renewal_status_reason). */
export interface NonRenewalReason {
  id: string;
  name: string;
}

/** How policies renew (renewal-rules.json): when the nightly run acts, when a renewal waits for an underwriter. */
export interface RenewalRules {
  /** The run creates a renewal this many days before the term ends. */
  leadDays: number;
  /** A renewal whose premium rises by more than this percent (decimal string) is held for review. */
  premiumIncreaseReviewPercent: string;
  /** A Non-Renewal must be decided at least this many days before the term ends. */
  nonRenewalNoticeDays: number;
}

/** A state's claims clock (claims-rules.json): what is due, from which of the claim's dates, in how many days of which calendar. */
export interface ClaimClock {
  state: string;
  id: string;
  what: string;
  /** The claim date it runs from: `notice` (the reported date) or a claim date type (`proof_of_loss_received`, `accepted`, ...). */
  from: string;
  days: number;
  /** Calendar days, or the service's business days (weekends and US federal holidays skipped). */
  calendar: 'calendar' | 'business';
}

/** How the product handles a coverage in a claim: its section, whether the policy deductible applies, its default loss reserve. */
export interface ClaimCoverageRule {
  item: string;
  section: 'I' | 'II';
  deductible: boolean;
  defaultLossReserve: string;
  /** A third party is the claimant (liability, medical payments). */
  thirdParty?: boolean;
  /** The mortgagee is a joint payee of a loss payment. */
  mortgageeJointPayee?: boolean;
  /** The limit applies per person rather than per occurrence. */
  limitPer?: 'occurrence' | 'person';
}

/** The product's claims rules (claims-rules.json, ../shared/spec/claims.md): data a carrier replaces with its own. */
export interface ClaimsRules {
  version: string;
  claimNumber: { prefix: string; restartsYearly: boolean };
  /** A report of the same policy, loss date and peril within this many days of another is a possible duplicate. */
  duplicateWindowDays: number;
  perils: Array<{ code: string; name: string }>;
  coverages: ClaimCoverageRule[];
  /** The item whose deductible is the policy's, once per occurrence over the deductible coverages. */
  deductibleItem: string;
  authority: Array<{ role: string; reservePerExposure: string; perPayment: string }>;
  clocks: ClaimClock[];
  /** A state's wording of the acknowledgement and what goes with it. */
  letters: Array<{ state: string; acknowledgement?: string; attachments?: string[] }>;
  /** The text of each attachment a state's letters name (by its title): printed as pages of the letter. */
  attachmentTexts?: Array<{ title: string; paragraphs: string[] }>;
  /** Who auto_assign_claim gives a claim to; absent (rules published before it): every holder of the Claims Adjuster role. */
  assignment?: ClaimAssignmentRules;
}

/**
 * How claims are assigned: the first rule whose perils and states (each, where given) hold the
 * claim's names the adjusters eligible for it (the holders of a role, or contacts by id); a claim
 * no rule holds goes to the holders of `role`. Among the eligible, the one with the fewest open
 * claims takes it, ties by name. Only contacts holding the Claims Adjuster or Claims Manager role,
 * and not terminated, are ever eligible.
 */
export interface ClaimAssignmentRules {
  /** The role (by name) whose holders take a claim no rule holds. */
  role: string;
  rules: Array<{ perils?: string[]; states?: string[]; role?: string; adjusters?: string[] }>;
}

export interface CancellationRules {
  /** Premium that stays earned on any cancellation but a flat one (decimal string). */
  minimumEarnedPremium: string;
  returnPremiumMethod: 'daily_pro_rata';
  /** Whether fees are returned on cancellation (items marked `fullyEarned` never are). */
  feesReturned: boolean;
  /** Who a refund of return premium or overpayment is paid to: the first named insured (the default), or the first mortgagee where the revision has one. */
  refundPayee?: 'namedInsured' | 'mortgageeFirst';
}

// ---------------------------------------------------------------------------
// The product: line, policy types, sub lines, items (with their rating rules as
// data), questions and forms. Amounts, limits and factors are decimal strings.
// ---------------------------------------------------------------------------

/** How an item or sub line is offered on a policy type. */
export type Availability = 'mandatory' | 'optional' | 'automatic';

export interface LineEffectiveDate {
  id: string;
  description: string;
  creation_date: string;
  effective_date: string;
  change_history: unknown[];
  override_lock: boolean;
}

export interface ProductLine {
  id: string;
  name: string;
  default?: boolean;
  effectiveDates: LineEffectiveDate[];
}

export interface PolicyType {
  id: string;
  name: string;
  lineId: string;
  default?: boolean;
  sortOrder: number;
}

export interface SubLineDefinition {
  id: string;
  name: string;
  description: string;
  category: 'policy' | 'property';
  type: 'liability' | 'inland marine' | 'property';
  allowMultiples: boolean;
  sortOrder: number;
  /** Keyed by policy type id; a sub line absent for a policy type is not offered on it. */
  availability: Record<string, Availability>;
}

/** A value a rule refers to: the limit of this item or another item of the same property, or a percent of one. */
export type ValueReference =
  | { limitOf: 'self' | (string & {}) }
  | { percentOfLimit: { item: string; percent: string } };

/** Which answer a factor or option table is read by. */
export type TableKey = { answer: string } | { deductible: true } | { limit: true };

/** A table row matches one value (`equals`) or an inclusive numeric range (`from`..`to`). */
export interface TableRow {
  equals?: string;
  from?: string;
  to?: string;
  factor?: string;
  amount?: string;
}

/**
 * One named step of an item's rating; the running total after each step is its
 * rating detail. Steps start from 0.00.
 */
export type RatingStep =
  | { name: string; op: 'perThousand'; of: ValueReference; rate: string }
  | { name: string; op: 'perThousandExcess'; of: ValueReference; over: ValueReference; rate: string }
  | { name: string; op: 'factor'; by: TableKey; table: TableRow[] }
  | { name: string; op: 'byOption'; by: TableKey; table: TableRow[] }
  | { name: string; op: 'atLeast'; amount: string }
  | { name: string; op: 'atMost'; amount: string }
  | { name: string; op: 'flat'; amount: string }
  /** The factor of the territory the property lies in, from its state filing's territory table (by ZIP, else county, else the state's default). */
  | { name: string; op: 'territory' }
  /** A percent of the policy's whole premium (every item that is not a fee): a premium tax or a surcharge on premium. */
  | { name: string; op: 'percentOfPolicyPremium'; percent: string }
  | {
      name: string;
      op: 'percentOfPremiums';
      percent: string;
      of: { category: 'policy' | 'property'; type: string; scope: 'allProperties' | 'sameProperty' };
      when?: { answer: string; equals: string };
    };

export interface LimitRule {
  required?: boolean;
  min?: string;
  max?: string;
  options?: string[];
  default?: string | ValueReference;
  /** The limit always follows its default and cannot be set. */
  locked?: boolean;
}

export interface ItemDefinition {
  id: string;
  name: string;
  description: string;
  category: 'policy' | 'property';
  type: 'coverage' | 'adjustment' | 'nonRate' | 'fee' | 'calculation' | 'dividend';
  subLineId: string;
  sortOrder: number;
  allowMultiples: boolean;
  showInBuilder: boolean;
  availability: Record<string, Availability>;
  limit?: LimitRule;
  deductible?: { options: string[]; default?: string };
  /** Form codes attached while the item is on the policy. */
  forms?: string[];
  /** `fullyEarned` fees are never returned on cancellation. */
  earning?: 'fullyEarned' | 'proRata';
  /** A state's tax, surcharge or assessment (a fee item made from a filing's `charges`): billed and printed apart from premium. */
  charge?: ChargeKind;
  /** The states whose filing charges it (charge items only); absent: every state. */
  states?: string[];
  rating: { steps: RatingStep[] };
}

export interface QuestionDefinition {
  id: string;
  name: string;
  /** `property` questions are answered per risk; `underwriting` ones per revision. */
  level: 'property' | 'underwriting';
  group?: string;
  answerType: 'choice' | 'yesNo' | 'number' | 'text';
  options?: string[];
  /** Answer (lower case) that fails straight-through processing, and how. */
  straightThrough?: Record<string, 'refer' | 'decline'>;
  /**
   * The policy's own claims answer the question at its renewal: a claim whose loss date falls in
   * the `years` before the renewal term's effective date makes the renewal's answer `answer`,
   * the claims named in its explanation. Revision-level (underwriting) questions only.
   */
  answeredByClaims?: { years: number; answer: string };
  sortOrder: number;
}

export interface FormDefinition {
  id: string;
  form_code: string;
  edition_number: string;
  description: string;
  attachWhen: { policyType?: string; item?: string };
}

export interface UnderwritingRules {
  lineId: string;
  rules: Array<{ name: string; when: Record<string, unknown>; outcome: 'refer' | 'decline' }>;
}

/**
 * A version of the product's rates: from its new-business effective date new quotes and new
 * business are rated with it, from its renewal effective date renewals are; an endorsement keeps
 * its term's version. `items` holds the rating steps of the items it rates differently from the
 * product's own steps (each version states all its differences from the product, not from the
 * version before it).
 */
export interface RateVersion {
  id: string;
  /** The state whose filing it belongs to; absent: the countrywide filing. */
  state?: string;
  /** The product version (import_line_file's version id) that published it. */
  productVersion?: string;
  /** The state's territory table as published with these rates (they rate by it for good, whatever a later version files). */
  territories?: TerritoryTable;
  name: string;
  newBusinessEffectiveDate: string;
  renewalEffectiveDate: string;
  /**
   * The most a renewal rated at this version may rise over the expiring term's premium, in
   * percent ("15": at most 115% of it); absent: renewals are not capped. Decreases are never capped.
   */
  renewalCapPercent?: string;
  items: Record<string, { steps: RatingStep[] }>;
}

export interface ProductCatalog {
  lines: ProductLine[];
  policyTypes: PolicyType[];
  subLines: SubLineDefinition[];
  items: ItemDefinition[];
  questions: QuestionDefinition[];
  forms: FormDefinition[];
  underwritingRules: UnderwritingRules[];
  /** The rate versions, oldest first; none in a catalog seeded before versions existed (the product's own steps are then the rates). */
  rateVersions: RateVersion[];
  /** The per-state filings (without their rate versions, which are in `rateVersions`); none in a catalog seeded before filings existed: the line is then written everywhere alike. */
  filings?: StateFiling[];
}

// ---------------------------------------------------------------------------
// Per-state filings (states/<state>.json of a product package): where and from when the
// line is written, its rates, territories, taxes and surcharges, forms and notice days. A
// state's filing states what differs from the countrywide one; the rest is inherited.
// ---------------------------------------------------------------------------

export type ChargeKind = 'tax' | 'surcharge' | 'assessment';

/** A tax, surcharge or assessment a state levies apart from premium. */
export interface ChargeDefinition {
  id: string;
  name: string;
  kind: ChargeKind;
  /** Exactly one of: a flat amount per policy, or a percent of the policy's premium (rounded half-up to the cent). */
  flat?: string;
  percentOfPremium?: string;
  /** How it is returned on cancellation: daily pro rata like premium, or never (fully earned). */
  returned: 'proRata' | 'fullyEarned';
}

export interface TerritoryEntry {
  territory: string;
  factor: string;
}

export interface TerritoryTable {
  /** By the property's 5-digit ZIP; read before the county. */
  byZip?: Array<TerritoryEntry & { zip: string }>;
  /** By the property's county name, as the ZIP table names it (Miami-Dade). */
  byCounty?: Array<TerritoryEntry & { county: string }>;
  /** Every other place of the state. */
  default?: TerritoryEntry;
}

export interface NoticeDays {
  nonPaymentCancellation?: number;
  otherCancellation?: number;
  nonRenewal?: number;
  conditionalRenewal?: number;
}

export interface StateFiling {
  /** Two-letter state code, or `countrywide` for the filing every state inherits from. */
  state: string;
  name: string;
  /** False: the line is not written in the state (a quote there is refused). Inherited when absent. */
  written?: boolean;
  availability?: { newBusiness: string; renewal: string };
  territories?: TerritoryTable;
  /** Replaces the inherited list when present. */
  charges?: ChargeDefinition[];
  /** Forms the state adds to the line's (attached by the same rules). */
  forms?: FormDefinition[];
  noticeDays?: NoticeDays;
}

const PRODUCT_KINDS = {
  LINE: 'lines',
  POLICYTYPE: 'policyTypes',
  SUBLINE: 'subLines',
  ITEM: 'items',
  QUESTION: 'questions',
  FORM: 'forms',
  UWRULES: 'underwritingRules',
  RATEVERSION: 'rateVersions',
  FILING: 'filings',
} as const satisfies Record<string, keyof ProductCatalog>;

const STORAGE_ATTRIBUTES = ['pk', 'sk', 'kind', 'catalogVersion'] as const;

/** Groups catalog records of the product kinds; other kinds are ignored. */
export function productFromRecords(records: ReadonlyArray<Record<string, unknown>>): ProductCatalog {
  const product: ProductCatalog = { lines: [], policyTypes: [], subLines: [], items: [], questions: [], forms: [], underwritingRules: [], rateVersions: [], filings: [] };
  for (const record of records) {
    const list = PRODUCT_KINDS[record.kind as keyof typeof PRODUCT_KINDS];
    if (!list) continue;
    const entry: Record<string, unknown> = { ...record };
    for (const attribute of STORAGE_ATTRIBUTES) delete entry[attribute];
    (product[list] as unknown[]).push(entry);
  }
  const bySortOrder = (a: { sortOrder: number }, b: { sortOrder: number }) => a.sortOrder - b.sortOrder;
  product.policyTypes.sort(bySortOrder);
  product.subLines.sort(bySortOrder);
  product.items.sort(bySortOrder);
  product.questions.sort(bySortOrder);
  product.filings!.sort((a, b) => a.state.localeCompare(b.state));
  product.items.push(...chargeItems(product));
  product.rateVersions.sort((a, b) => a.newBusinessEffectiveDate.localeCompare(b.newBusinessEffectiveDate) || a.renewalEffectiveDate.localeCompare(b.renewalEffectiveDate));
  return product;
}

/**
 * The fee items a product's filings charge: one per tax, surcharge or assessment, on the
 * line's first policy sub line, offered on no policy type until the state's view of the
 * product (shared/catalog/filings.ts) makes it automatic there. Every area knows them by id.
 */
export function chargeItems(product: Pick<ProductCatalog, 'filings' | 'subLines' | 'items'>): ItemDefinition[] {
  const subLineId = product.subLines.find((subLine) => subLine.category === 'policy')?.id ?? product.subLines[0]?.id ?? '';
  const lastSort = product.items.reduce((highest, item) => Math.max(highest, item.sortOrder), 0);
  const byId = new Map<string, ItemDefinition>();
  for (const filing of product.filings ?? []) {
    for (const charge of filing.charges ?? []) {
      const known = byId.get(charge.id);
      if (known) {
        known.states!.push(filing.state);
        continue;
      }
      byId.set(charge.id, {
        id: charge.id,
        name: charge.name,
        description: `${charge.name} (${charge.kind})`,
        category: 'policy',
        type: 'fee',
        subLineId,
        sortOrder: lastSort + 1 + byId.size,
        allowMultiples: false,
        showInBuilder: false,
        availability: {},
        earning: charge.returned,
        charge: charge.kind,
        states: [filing.state],
        rating: {
          steps: [
            charge.percentOfPremium !== undefined
              ? { name: charge.name, op: 'percentOfPolicyPremium', percent: charge.percentOfPremium }
              : { name: charge.name, op: 'flat', amount: charge.flat ?? '0.00' },
          ],
        },
      });
    }
  }
  return [...byId.values()];
}

/** The kinds of catalog record (the `kind` every one carries), the singular ones and those with many by id. */
export type CatalogKind = 'CARRIER' | 'ROLE' | 'BILLINGSCHEDULE' | 'CANCELREASON' | (string & {});
