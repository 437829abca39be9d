/**
 * A policy document from a revision as stored: who is insured, each property with its
 * coverages, the policy-level coverages, adjustments, fees, forms and totals. Pure: the
 * caller loads the revision, the named insureds and the catalog's names; the same inputs
 * always give the same document.
 */
import type { LineItemRecord, RevisionSnapshot, RiskRecord } from '../policies/index.js';
import type { Cents } from '../platform/money.js';
import type {
  BillingDetails,
  CancellationDetails,
  Carrier,
  ChargeLine,
  CoverageLine,
  DeliverableType,
  FormReference,
  InsuredProperty,
  MailingAddress,
  NamedInsured,
  PolicyDocument,
  Producer,
} from './model.js';

/** The carrier printed on documents when the carrier settings name none. */
export const DEFAULT_CARRIER: Carrier = {
  name: 'Reference Mutual Insurance Company',
  address: { line1: '100 Main Street', line2: 'Suite 400', city: 'Springfield', state: 'IL', zip: '62701' },
  phone: '(217) 555-0100',
};

export interface DocumentSources {
  type: DeliverableType;
  snapshot: RevisionSnapshot;
  policyTypeName: string;
  carrier: Carrier;
  /** The named insureds in the revision's order, with the mailing address on their contact (if any). */
  namedInsureds: Array<{ name: string; address?: MailingAddress }>;
  producer?: Producer;
  forms: Array<{ form_code: string; edition_number: string; description: string }>;
  billing?: BillingDetails;
  cancellation?: CancellationDetails;
  issueDate: string;
  /** Names of the product's property questions by id, so that a property prints its construction and protection class. */
  questionNames?: Readonly<Record<string, string>>;
}

/** The property questions a declaration prints, by the product's question name. */
export const PRINTED_PROPERTY_QUESTIONS = { construction: 'Construction Type', protectionClass: 'Protection Class' } as const;

function answerNamed(risk: RiskRecord, questionNames: Readonly<Record<string, string>> | undefined, name: string): string | undefined {
  if (!questionNames) return undefined;
  const id = Object.keys(questionNames).find((questionId) => questionNames[questionId] === name);
  const answer = id ? risk.questions?.[id] : undefined;
  return answer ? String(answer) : undefined;
}

const EMPTY_ADDRESS: MailingAddress = { line1: '', city: '', state: '', zip: '' };

export function riskAddress(risk: RiskRecord | undefined): MailingAddress {
  if (!risk) return EMPTY_ADDRESS;
  return {
    line1: risk.address_line1 ?? '',
    ...(risk.address_line2 ? { line2: risk.address_line2 } : {}),
    city: risk.address_city ?? '',
    state: risk.address_state ?? '',
    zip: risk.address_zip ?? '',
  };
}

const hasAddress = (address: MailingAddress | undefined): address is MailingAddress => !!address && !!(address.line1 || address.city || address.zip);

/** The primary property (or the first): where mail goes when a named insured has no address of their own. */
export function primaryRisk(snapshot: Pick<RevisionSnapshot, 'risks'>): RiskRecord | undefined {
  const ordered = [...snapshot.risks].sort((a, b) => a.sequence - b.sequence);
  return ordered.find((risk) => risk.primary) ?? ordered[0];
}

const bySortOrder = (a: LineItemRecord, b: LineItemRecord) => a.sortOrder - b.sortOrder || a.name.localeCompare(b.name);

/** Coverages print their limit and deductible; a nonRate coverage (Loss of Use) prints 0.00 premium. */
function coverageLine(item: LineItemRecord): CoverageLine {
  return {
    name: item.name,
    ...(item.limitCents !== null && item.limitCents !== undefined ? { limit: item.limitCents } : {}),
    ...(item.deductibleCents ? { deductible: item.deductibleCents } : {}),
    premium: item.annualPremiumCents ?? 0,
  };
}

const isCoverage = (item: LineItemRecord) => item.type === 'coverage' || item.type === 'nonRate';
const isLive = (item: LineItemRecord) => item.persistStatus !== 'rejected';

const optionalField = <K extends string>(key: K, value: string | undefined) => (value ? ({ [key]: value } as Record<K, string>) : {});

export function policyDocumentFrom(sources: DocumentSources): PolicyDocument {
  const { snapshot } = sources;
  const header = snapshot.header;
  const items = snapshot.items.filter(isLive).sort(bySortOrder);
  const mailTo = riskAddress(primaryRisk(snapshot));
  const properties: InsuredProperty[] = [...snapshot.risks]
    .sort((a, b) => a.sequence - b.sequence)
    .map((risk) => ({
      name: risk.name,
      address: riskAddress(risk),
      ...(risk.year_built ? { yearBuilt: risk.year_built } : {}),
      ...optionalField('construction', answerNamed(risk, sources.questionNames, PRINTED_PROPERTY_QUESTIONS.construction)),
      ...optionalField('protectionClass', answerNamed(risk, sources.questionNames, PRINTED_PROPERTY_QUESTIONS.protectionClass)),
      coverages: items.filter((item) => item.riskId === risk.id && isCoverage(item)).map(coverageLine),
    }));
  const policyLevel = items.filter((item) => !item.riskId || !snapshot.risks.some((risk) => risk.id === item.riskId));
  const policyCoverages = policyLevel.filter(isCoverage).map(coverageLine);
  // Adjustments attached to a property still print once, among the policy's adjustments.
  const adjustments: ChargeLine[] = items.filter((item) => item.type === 'adjustment').map((item) => ({ name: item.name, amount: item.annualPremiumCents ?? 0 }));
  const fees: ChargeLine[] = items
    .filter((item) => item.type === 'fee')
    .map((item) => ({ name: item.name, amount: item.annualFeeCents ?? item.annualPremiumCents ?? 0 }));
  const namedInsureds: NamedInsured[] = sources.namedInsureds.map((insured) => ({
    name: insured.name,
    mailingAddress: hasAddress(insured.address) ? insured.address : mailTo,
  }));
  const forms: FormReference[] = sources.forms.map((form) => ({ code: form.form_code, edition: form.edition_number, description: form.description }));
  const premium: Cents = header.annualPremiumCents;
  const feeTotal: Cents = header.annualFeeCents;
  return {
    type: sources.type,
    carrier: sources.carrier,
    policyNumber: header.policyNumber,
    policyType: sources.policyTypeName,
    namedInsureds,
    ...(sources.producer ? { producer: sources.producer } : {}),
    term: { effectiveDate: header.termStart, expirationDate: header.termEnd },
    properties,
    policyCoverages,
    adjustments,
    fees,
    forms,
    totals: { premium, fees: feeTotal, total: premium + feeTotal },
    ...(sources.billing ? { billing: sources.billing } : {}),
    ...(sources.cancellation ? { cancellation: sources.cancellation } : {}),
    issueDate: sources.issueDate,
  };
}

/** Who an envelope goes to: the first named insured, at the address the document prints. */
export function recipientOf(document: Pick<PolicyDocument, 'namedInsureds'>): { name: string; address: MailingAddress } | null {
  const first = document.namedInsureds[0];
  return first ? { name: first.name, address: first.mailingAddress } : null;
}

/** The file's name: `Declaration-10-2026-1.pdf`. */
export function deliverableFileName(type: string, policyNumber: string, extension = 'pdf'): string {
  // Letters, digits, dashes and underscores only: a name given by a client (a custom
  // deliverable's) can carry no dots, slashes or spaces into the bucket key or a header.
  const safe = (text: string) => text.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/-+/g, '-').replace(/^-|-$/g, '').slice(0, 80) || 'file';
  return `${safe(type)}-${safe(policyNumber)}.${extension}`;
}
