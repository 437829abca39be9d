/**
 * The product package: a folder of JSON files (docs/products.md), or the same files as one
 * JSON document keyed by their paths in the folder (what import_line_file takes). One schema
 * per file, on zod/mini; `readPackage` checks every file and answers every problem at once,
 * each naming the file, the path inside it and what is wrong.
 */
import * as z from 'zod/mini';
import type {
  BillingScheduleDefinition,
  ClaimsRules,
  CancelReason,
  FormDefinition,
  ItemDefinition,
  NonRenewalReason,
  PolicyType,
  ProductLine,
  QuestionDefinition,
  RateVersion,
  StateFiling,
  SubLineDefinition,
  UnderwritingRules,
} from './model.js';

/** Where each part of a package lives in its folder. */
export const PACKAGE_FILES = {
  line: 'line.json',
  subLines: 'sub-lines.json',
  items: 'items.json',
  questions: 'questions.json',
  forms: 'forms.json',
  billing: 'billing-schedules.json',
  cancellation: 'cancel-reasons.json',
  renewal: 'renewal-rules.json',
} as const;
/** Files a package may carry; without one the shipped reference rules apply. */
export const OPTIONAL_PACKAGE_FILES = {
  claims: 'claims-rules.json',
} as const;
export const STATES_FOLDER = 'states/';
export const WORKSHEETS_FOLDER = 'worksheets/';

/** One problem of a package: the file, the path inside it (dotted, `` for the whole file) and what is wrong. */
export interface PackageProblem {
  file: string;
  path: string;
  problem: string;
}

/** A package as one document: each file's parsed JSON by its path in the folder. */
export type PackageDocument = Record<string, unknown>;

export interface Worksheet {
  file: string;
  name: string;
  /** The quote request's quote_info, as create_quote_extended takes it. */
  quote_info: Record<string, unknown>;
  expected: {
    /** Per rated item: its name, its location (index of quote_info.locations; absent for policy items), its running totals by step and/or its annual amount. */
    items?: Array<{ name: string; location?: number; steps?: Record<string, string>; annual?: string; territory?: string }>;
    totals?: Partial<Record<'annual_premium' | 'annual_fees' | 'annual_surcharges' | 'annual_total', string>>;
  };
}

export interface ProductPackage {
  line: { version: string; lines: ProductLine[]; policyTypes: Array<Omit<PolicyType, 'default'> & { default?: boolean }>; underwritingRules: UnderwritingRules['rules'] };
  subLines: { version: string; subLines: SubLineDefinition[] };
  items: { version: string; items: ItemDefinition[] };
  questions: { version: string; questions: QuestionDefinition[] };
  forms: { version: string; forms: FormDefinition[] };
  billing: { version: string; billingSchedules: BillingScheduleDefinition[]; billDaysBeforeDue: number; nonPaymentCancelDaysAfterDue: number; firstInstallmentBilledOnEffectiveDate: boolean };
  cancellation: { version: string; cancelReasons: CancelReason[]; minimumEarnedPremium: string; returnPremiumMethod: 'daily_pro_rata'; feesReturned: boolean; refundPayee?: 'namedInsured' | 'mortgageeFirst' };
  renewal: { version: string; leadDays: number; premiumIncreaseReviewPercent: string; nonRenewalNoticeDays: number; nonRenewalReasons: NonRenewalReason[] };
  claims?: ClaimsRules;
  filings: Array<StateFiling & { file: string; version?: string; rateVersions?: RateVersion[] }>;
  worksheets: Worksheet[];
}

// ------------------------------------------------------------------ vocabulary

const DECIMAL = /^-?\d+(\.\d+)?$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const UUID_LIKE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const decimal = () => z.string().check(z.regex(DECIMAL, 'a decimal number written as a string, such as "1.25"'));
const isoDate = () => z.string().check(z.regex(ISO_DATE, 'a date YYYY-MM-DD'));
const uuid = () => z.string().check(z.regex(UUID_LIKE, 'an id (UUID)'));
const text = () => z.string().check(z.minLength(1, 'a non-empty text'));
const version = () => z.string().check(z.minLength(1, 'the version of the file'));
/**
 * The schemas, built by the first package read rather than at import: a few hundred zod instances
 * that a function reading the shipped product (get_all_lines, get_all_states) never needs, and
 * that would cost every cold start of the functions bundling this module milliseconds.
 */
function buildSchemas() {
  const availability = z.enum(['mandatory', 'optional', 'automatic']);
  const availabilityMap = z.record(z.string(), availability);
  const days = () => z.number().check(z.int(), z.nonnegative());

  const valueReference = z.union([
    z.strictObject({ limitOf: z.string() }),
    z.strictObject({ percentOfLimit: z.strictObject({ item: z.string(), percent: decimal() }) }),
  ]);
  const tableKey = z.union([z.strictObject({ answer: z.string() }), z.strictObject({ deductible: z.literal(true) }), z.strictObject({ limit: z.literal(true) })]);
  const tableRow = z.strictObject({ equals: z.optional(z.string()), from: z.optional(decimal()), to: z.optional(decimal()), factor: z.optional(decimal()), amount: z.optional(decimal()) });

  const ratingStep = z.discriminatedUnion('op', [
    z.strictObject({ name: text(), op: z.literal('perThousand'), of: valueReference, rate: decimal() }),
    z.strictObject({ name: text(), op: z.literal('perThousandExcess'), of: valueReference, over: valueReference, rate: decimal() }),
    z.strictObject({ name: text(), op: z.literal('factor'), by: tableKey, table: z.array(tableRow) }),
    z.strictObject({ name: text(), op: z.literal('byOption'), by: tableKey, table: z.array(tableRow) }),
    z.strictObject({ name: text(), op: z.literal('atLeast'), amount: decimal() }),
    z.strictObject({ name: text(), op: z.literal('atMost'), amount: decimal() }),
    z.strictObject({ name: text(), op: z.literal('flat'), amount: decimal() }),
    z.strictObject({ name: text(), op: z.literal('territory') }),
    z.strictObject({ name: text(), op: z.literal('percentOfPolicyPremium'), percent: decimal() }),
    z.strictObject({
      name: text(),
      op: z.literal('percentOfPremiums'),
      percent: decimal(),
      of: z.strictObject({ category: z.enum(['policy', 'property']), type: z.string(), scope: z.enum(['allProperties', 'sameProperty']) }),
      when: z.optional(z.strictObject({ answer: z.string(), equals: z.string() })),
    }),
  ]);
  const steps = z.strictObject({ steps: z.array(ratingStep) });

  const rateVersion = z.strictObject({
    id: uuid(),
    name: text(),
    newBusinessEffectiveDate: isoDate(),
    // A version without its renewal date is a filing mistake of its own (validate names it), not a shape error.
    renewalEffectiveDate: z.optional(isoDate()),
    // The most a renewal's premium may rise over the expiring premium, in percent; its range is checked by validate.
    renewalCapPercent: z.optional(decimal()),
    items: z.record(z.string(), steps),
  });

  const form = z.strictObject({
    id: uuid(),
    form_code: text(),
    edition_number: z.string(),
    description: z.string(),
    attachWhen: z.strictObject({ policyType: z.optional(z.string()), item: z.optional(z.string()) }),
  });

  const item = z.strictObject({
    id: uuid(),
    name: text(),
    description: z.string(),
    category: z.enum(['policy', 'property']),
    type: z.enum(['coverage', 'adjustment', 'nonRate', 'fee', 'calculation', 'dividend']),
    subLineId: z.string(),
    sortOrder: z.number(),
    allowMultiples: z.boolean(),
    showInBuilder: z.boolean(),
    availability: availabilityMap,
    limit: z.optional(
      z.strictObject({
        required: z.optional(z.boolean()),
        min: z.optional(decimal()),
        max: z.optional(decimal()),
        options: z.optional(z.array(decimal())),
        default: z.optional(z.union([decimal(), valueReference])),
        locked: z.optional(z.boolean()),
      }),
    ),
    deductible: z.optional(z.strictObject({ options: z.array(decimal()), default: z.optional(decimal()) })),
    forms: z.optional(z.array(z.string())),
    earning: z.optional(z.enum(['fullyEarned', 'proRata'])),
    rating: steps,
  });

  const territoryEntry = { territory: text(), factor: decimal() };
  const charge = z.strictObject({
    id: uuid(),
    name: text(),
    kind: z.enum(['tax', 'surcharge', 'assessment']),
    flat: z.optional(decimal()),
    percentOfPremium: z.optional(decimal()),
    // Required by the filing rules, checked by validate so that its message names the mistake.
    returned: z.optional(z.enum(['proRata', 'fullyEarned'])),
  });

  const filing = z.strictObject({
    state: z.string().check(z.regex(/^([A-Z]{2}|countrywide)$/, 'a two-letter state code such as "FL", or "countrywide"')),
    name: text(),
    version: z.optional(version()),
    written: z.optional(z.boolean()),
    availability: z.optional(z.strictObject({ newBusiness: isoDate(), renewal: isoDate() })),
    rateVersions: z.optional(z.array(rateVersion)),
    territories: z.optional(
      z.strictObject({
        byZip: z.optional(z.array(z.strictObject({ zip: z.string().check(z.regex(/^\d{5}$/, 'a 5-digit ZIP')), ...territoryEntry }))),
        byCounty: z.optional(z.array(z.strictObject({ county: text(), ...territoryEntry }))),
        default: z.optional(z.strictObject(territoryEntry)),
      }),
    ),
    charges: z.optional(z.array(charge)),
    forms: z.optional(z.array(form)),
    noticeDays: z.optional(
      z.strictObject({ nonPaymentCancellation: z.optional(days()), otherCancellation: z.optional(days()), nonRenewal: z.optional(days()), conditionalRenewal: z.optional(days()) }),
    ),
  });

  const worksheet = z.strictObject({
    name: text(),
    quote_info: z.record(z.string(), z.unknown()),
    expected: z.strictObject({
      items: z.optional(
        z.array(
          z.strictObject({
            name: text(),
            location: z.optional(z.number().check(z.int(), z.nonnegative())),
            steps: z.optional(z.record(z.string(), decimal())),
            annual: z.optional(decimal()),
            territory: z.optional(z.string()),
          }),
        ),
      ),
      totals: z.optional(
        z.strictObject({ annual_premium: z.optional(decimal()), annual_fees: z.optional(decimal()), annual_surcharges: z.optional(decimal()), annual_total: z.optional(decimal()) }),
      ),
    }),
  });

  const FILE_SCHEMAS = {
    [PACKAGE_FILES.line]: z.strictObject({
      version: version(),
      lines: z.array(
        z.strictObject({
          id: uuid(),
          name: text(),
          default: z.optional(z.boolean()),
          effectiveDates: z.array(
            z.strictObject({ id: uuid(), description: z.string(), creation_date: isoDate(), effective_date: isoDate(), change_history: z.array(z.unknown()), override_lock: z.boolean() }),
          ),
        }),
      ).check(z.minLength(1, 'at least one line')),
      policyTypes: z.array(z.strictObject({ id: uuid(), name: text(), lineId: z.string(), default: z.optional(z.boolean()), sortOrder: z.number() })),
      underwritingRules: z.array(z.strictObject({ name: text(), when: z.record(z.string(), z.unknown()), outcome: z.enum(['refer', 'decline']) })),
    }),
    [PACKAGE_FILES.subLines]: z.strictObject({
      version: version(),
      subLines: z.array(
        z.strictObject({
          id: uuid(),
          name: text(),
          description: z.string(),
          category: z.enum(['policy', 'property']),
          type: z.enum(['liability', 'inland marine', 'property']),
          allowMultiples: z.boolean(),
          sortOrder: z.number(),
          availability: availabilityMap,
        }),
      ),
    }),
    [PACKAGE_FILES.items]: z.strictObject({ version: version(), items: z.array(item) }),
    [PACKAGE_FILES.questions]: z.strictObject({
      version: version(),
      questions: z.array(
        z.strictObject({
          id: uuid(),
          name: text(),
          level: z.enum(['property', 'underwriting']),
          group: z.optional(z.string()),
          answerType: z.enum(['choice', 'yesNo', 'number', 'text']),
          options: z.optional(z.array(z.string())),
          straightThrough: z.optional(z.record(z.string(), z.enum(['refer', 'decline']))),
          answeredByClaims: z.optional(z.strictObject({ years: z.number().check(z.int(), z.minimum(1), z.maximum(10)), answer: text() })),
          sortOrder: z.number(),
        }),
      ),
    }),
    [PACKAGE_FILES.forms]: z.strictObject({ version: version(), forms: z.array(form) }),
    [PACKAGE_FILES.billing]: z.strictObject({
      version: version(),
      billingSchedules: z.array(
        z.strictObject({ id: uuid(), label: text(), installments: z.array(z.strictObject({ factor: decimal(), monthsAfterEffective: days(), installmentFee: decimal() })).check(z.minLength(1, 'at least one installment')) }),
      ),
      billDaysBeforeDue: days(),
      nonPaymentCancelDaysAfterDue: days(),
      firstInstallmentBilledOnEffectiveDate: z.boolean(),
    }),
    [PACKAGE_FILES.cancellation]: z.strictObject({
      version: version(),
      cancelReasons: z.array(z.strictObject({ id: uuid(), name: text(), reinstatable: z.optional(z.boolean()) })),
      minimumEarnedPremium: decimal(),
      returnPremiumMethod: z.literal('daily_pro_rata'),
      feesReturned: z.boolean(),
      refundPayee: z.optional(z.enum(['namedInsured', 'mortgageeFirst'])),
    }),
    [PACKAGE_FILES.renewal]: z.strictObject({
      version: version(),
      leadDays: days(),
      premiumIncreaseReviewPercent: decimal(),
      nonRenewalNoticeDays: days(),
      nonRenewalReasons: z.array(z.strictObject({ id: uuid(), name: text() })),
    }),
    [OPTIONAL_PACKAGE_FILES.claims]: z.strictObject({
      version: version(),
      claimNumber: z.strictObject({ prefix: z.string().check(z.regex(/^[A-Z]{1,6}$/, 'one to six capital letters')), restartsYearly: z.boolean() }),
      duplicateWindowDays: days(),
      perils: z.array(z.strictObject({ code: z.string().check(z.regex(/^[A-Z]{2,6}$/, 'a code of two to six capital letters')), name: text() })),
      coverages: z.array(
        z.strictObject({
          item: text(),
          section: z.enum(['I', 'II']),
          deductible: z.boolean(),
          defaultLossReserve: decimal(),
          thirdParty: z.optional(z.boolean()),
          mortgageeJointPayee: z.optional(z.boolean()),
          limitPer: z.optional(z.enum(['occurrence', 'person'])),
        }),
      ),
      deductibleItem: text(),
      authority: z.array(z.strictObject({ role: text(), reservePerExposure: decimal(), perPayment: decimal() })),
      clocks: z.array(
        z.strictObject({
          state: z.string().check(z.regex(/^[A-Z]{2}$/, 'a two-letter state code')),
          id: z.string().check(z.regex(/^[a-z_]{1,40}$/, 'lower-case letters and underscores')),
          what: text(),
          from: z.string().check(z.regex(/^[a-z_]{1,40}$/, 'notice or a claim date type')),
          days: days(),
          calendar: z.enum(['calendar', 'business']),
        }),
      ),
      letters: z.array(z.strictObject({ state: z.string().check(z.regex(/^[A-Z]{2}$/, 'a two-letter state code')), acknowledgement: z.optional(text()), attachments: z.optional(z.array(text())) })),
      assignment: z.optional(
        z.strictObject({
          role: text(),
          rules: z.array(
            z
              .strictObject({
                perils: z.optional(z.array(z.string().check(z.regex(/^[A-Z]{2,6}$/, 'a peril code of two to six capital letters')))),
                states: z.optional(z.array(z.string().check(z.regex(/^[A-Z]{2}$/, 'a two-letter state code')))),
                role: z.optional(text()),
                adjusters: z.optional(z.array(uuid()).check(z.minLength(1, 'at least one contact id'))),
              })
              .check(z.refine((rule) => (rule.role === undefined) !== (rule.adjusters === undefined), 'a rule names either the role whose holders take the claim or the adjusters (contact ids), not both')),
          ),
        }),
      ),
      attachmentTexts: z.optional(z.array(z.strictObject({ title: text(), paragraphs: z.array(text()).check(z.minLength(1, 'at least one paragraph')) }))),
    }),
  } as const;
  return { FILE_SCHEMAS, filing, worksheet };
}
let schemas: ReturnType<typeof buildSchemas> | undefined;
const packageSchemas = () => (schemas ??= buildSchemas());

/** Dotted path of a zod issue (`items.0.rating.steps.3.rate`). */
function dotted(path: ReadonlyArray<PropertyKey>): string {
  return path.map(String).join('.');
}

function checkFile<T>(file: string, schema: z.ZodMiniType<T>, content: unknown, problems: PackageProblem[]): T | undefined {
  const parsed = schema.safeParse(content);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) problems.push({ file, path: dotted(issue.path), problem: issueText(issue) });
  return undefined;
}

function issueText(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => JSON.stringify(key)).join(', ')}`;
  if (issue.code === 'invalid_type' && issue.input === undefined) return `missing: expected ${issue.expected}`;
  if (issue.code === 'invalid_union' && 'discriminator' in issue) return 'an unknown rating step op';
  return issue.message;
}

/**
 * The package in a document, checked file by file against the schema. Answers the package
 * when every file is well formed, and every problem of every file otherwise.
 */
export function readPackage(document: PackageDocument): { package?: ProductPackage; problems: PackageProblem[] } {
  const problems: PackageProblem[] = [];
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    return { problems: [{ file: '', path: '', problem: 'a package is an object of files by their paths in the folder (line.json, items.json, states/FL.json, ...)' }] };
  }
  const parts: Record<string, unknown> = {};
  for (const [key, file] of Object.entries(PACKAGE_FILES)) {
    if (!(file in document)) {
      problems.push({ file, path: '', problem: 'the file is missing from the package' });
      continue;
    }
    parts[key] = checkFile(file, packageSchemas().FILE_SCHEMAS[file] as z.ZodMiniType<unknown>, document[file], problems);
  }
  for (const [key, file] of Object.entries(OPTIONAL_PACKAGE_FILES)) {
    if (file in document) parts[key] = checkFile(file, packageSchemas().FILE_SCHEMAS[file] as z.ZodMiniType<unknown>, document[file], problems);
  }
  const filings: ProductPackage['filings'] = [];
  const worksheets: Worksheet[] = [];
  for (const [file, content] of Object.entries(document)) {
    if (file.startsWith(STATES_FOLDER)) {
      const parsed = checkFile(file, packageSchemas().filing, content, problems);
      if (!parsed) continue;
      const expected = `${STATES_FOLDER}${parsed.state}.json`;
      if (file !== expected) problems.push({ file, path: 'state', problem: `the filing of ${parsed.state} belongs in ${expected}` });
      filings.push({ ...(parsed as StateFiling & { rateVersions?: RateVersion[] }), file });
    } else if (file.startsWith(WORKSHEETS_FOLDER)) {
      const parsed = checkFile(file, packageSchemas().worksheet, content, problems);
      if (parsed) worksheets.push({ ...parsed, file });
    } else if (!Object.values(PACKAGE_FILES).includes(file as never) && !Object.values(OPTIONAL_PACKAGE_FILES).includes(file as never)) {
      problems.push({ file, path: '', problem: `not a file of a product package (expected ${[...Object.values(PACKAGE_FILES), ...Object.values(OPTIONAL_PACKAGE_FILES)].join(', ')}, ${STATES_FOLDER}<state>.json or ${WORKSHEETS_FOLDER}<name>.json)` });
    }
  }
  if (!filings.some((entry) => entry.state === 'countrywide')) {
    problems.push({ file: `${STATES_FOLDER}countrywide.json`, path: '', problem: 'the countrywide filing is missing: every state inherits what it does not state from it' });
  }
  if (problems.length > 0) return { problems };
  filings.sort((a, b) => a.file.localeCompare(b.file));
  worksheets.sort((a, b) => a.file.localeCompare(b.file));
  return { package: { ...(parts as Omit<ProductPackage, 'filings' | 'worksheets'>), filings, worksheets }, problems };
}
