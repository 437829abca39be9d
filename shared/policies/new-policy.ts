/**
 * Creating a policy: who it belongs to, its first term and open revision, the structure
 * it starts with, all decided and checked before a number is allocated. No I/O: ids,
 * the ZIP lookup and the clock are given.
 */
import { firstRevisionIdOf } from './revision-ids.js';
import type { ProductCatalog } from '../catalog/index.js';
import { ADDITIONAL_INTEREST_ROLE_ID, AGENCY_ROLE_ID, AGENT_ROLE_ID, NAMED_INSURED_ROLE_ID } from '../contacts/index.js';
import { todayIso } from '../platform/dates.js';
import { BusinessRuleError } from '../platform/errors.js';
import { applyExternalItems, externalRisk, externalTotals } from './external-quote.js';
import type {
  CreatePolicyInput,
  CreationServices,
  ExternalQuoteParts,
  LineItemRecord,
  Placement,
  PolicyContacts,
  PolicyCreator,
  PolicyDraft,
  PolicyRecord,
  RevisionRecord,
  RiskRecord,
  SubLineRecord,
  TermRecord,
} from './model.js';
import { applyLocation, newRisk } from './risk-rules.js';
import { startingStructure, withDefaultLimits } from './structure.js';
import { newTermDates } from './terms.js';
import { validateUnderwritingAnswers } from './underwriting.js';

// ---------------------------------------------------------------- who the policy belongs to

/**
 * The agency a new policy belongs to. An agent's policy belongs to its agency (its default
 * agency when it has several), never to the agent alone, even when the agent holds the
 * Agency role itself; other callers' policies belong to their first agency, if any.
 */
export function agencyOfRecord(creator: PolicyCreator): string | null {
  if (!creator.isAgent) return creator.agencyIds[0] ?? null;
  const agencies = creator.agencyIds.filter((id) => id !== creator.contactId);
  const agency = creator.defaultAgency && agencies.includes(creator.defaultAgency) ? creator.defaultAgency : agencies[0];
  if (!agency) throw new BusinessRuleError('An agent creates policies for its agency, and this agent belongs to no agency');
  return agency;
}

/** The contacts of a new policy: its creator, the agent (an Agent creating it, or anyone asking as_agent) and the agency. */
export function policyContactsFor(creator: PolicyCreator): PolicyContacts {
  return {
    creatorId: creator.contactId,
    agentId: creator.isAgent || creator.asAgent ? creator.contactId : null,
    agencyId: agencyOfRecord(creator),
    namedInsuredIds: [],
    additionalInterestIds: [],
  };
}

/** Everyone on a policy, each once (`reaches()` and the names shown read this). */
export function contactIdsOf(contacts: PolicyContacts): string[] {
  const ids = [contacts.creatorId, contacts.agentId, contacts.agencyId, ...contacts.namedInsuredIds, ...contacts.additionalInterestIds];
  return [...new Set(ids.filter((id): id is string => !!id))];
}

/** The role in which each contact is linked to the policy; one link per contact (a transaction writes an item once). */
export function contactRoles(contacts: PolicyContacts): Array<{ contactId: string; roleId: string }> {
  const links: Array<[string | null, string]> = [
    [contacts.agentId, AGENT_ROLE_ID],
    [contacts.agencyId, AGENCY_ROLE_ID],
    ...contacts.namedInsuredIds.map((id): [string, string] => [id, NAMED_INSURED_ROLE_ID]),
    ...contacts.additionalInterestIds.map((id): [string, string] => [id, ADDITIONAL_INTEREST_ROLE_ID]),
  ];
  const seen = new Set<string>();
  return links
    .filter((link): link is [string, string] => !!link[0] && !seen.has(link[0]) && !!seen.add(link[0]))
    .map(([contactId, roleId]) => ({ contactId, roleId }));
}

// ---------------------------------------------------------------- what it starts with

function policyTypeAndLine(product: ProductCatalog, policyTypeId: string | undefined) {
  const id = policyTypeId ?? (product.policyTypes.find((type) => type.default) ?? product.policyTypes[0]).id;
  const policyType = product.policyTypes.find((type) => type.id === id);
  if (!policyType) throw new BusinessRuleError(`policy_type_id: ${id} is not a policy type of the catalog`);
  const line = product.lines.find((candidate) => candidate.id === policyType.lineId) ?? product.lines[0];
  return { policyType, line };
}

/** The line's rates version in force on the effective date: the latest that starts on or before it. */
function lineDateFor(line: ProductCatalog['lines'][number], effectiveDate: string) {
  const lineDate = [...line.effectiveDates].sort((a, b) => b.effective_date.localeCompare(a.effective_date)).find((entry) => entry.effective_date <= effectiveDate);
  if (!lineDate) throw new BusinessRuleError(`effective_date: the ${line.name} line has no rates effective on ${effectiveDate}`);
  return lineDate;
}

/** The revision's starting sub lines and items, plus a property for `property_zip` or the quote's risks. */
export function initialStructure(
  product: ProductCatalog,
  at: { policyId: string; revisionId: string; policyTypeId: string; today: string; now: Date },
  propertyZip: string | undefined,
  external: ExternalQuoteParts | undefined,
  services: CreationServices,
): { risks: RiskRecord[]; subLines: SubLineRecord[]; items: LineItemRecord[] } {
  const placement: Placement = { revisionId: at.revisionId, riskId: null, policyTypeId: at.policyTypeId, today: at.today, now: at.now };
  const policyLevel = startingStructure(product, placement, 'policy', services.newId);
  const risks: RiskRecord[] = [];
  const subLines: SubLineRecord[] = [...policyLevel.subLines];
  let items: LineItemRecord[] = [...policyLevel.items];
  const addRisk = (configure: (risk: RiskRecord) => RiskRecord) => {
    const sequence = risks.length + 1;
    const risk = configure(newRisk({ id: services.newId(), revisionId: at.revisionId, policyId: at.policyId, sequence, primary: sequence === 1, now: at.now }));
    risks.push(risk);
    const property = startingStructure(product, { ...placement, riskId: risk.id }, 'property', services.newId);
    subLines.push(...property.subLines);
    items.push(...property.items);
    return risk;
  };
  if (external) {
    external.risks.forEach((quoteRisk, index) => {
      const risk = addRisk((fresh) => externalRisk(fresh, quoteRisk, product));
      items = applyExternalItems(product, items, quoteRisk.items ?? [], { ...placement, riskId: risk.id }, subLines, `quote.risks.${index}.items`, services.newId);
    });
    items = applyExternalItems(product, items, external.items, placement, subLines, 'quote.items', services.newId);
  } else if (propertyZip) {
    addRisk((fresh) => applyLocation(fresh, { address_zip: propertyZip }, { soft: false, hard: false, lookup: services.lookupZip }));
  }
  return { risks, subLines, items: withDefaultLimits(items, product) };
}

const UNRATED: PolicyDraft['totals'] = { annualPremiumCents: 0, writtenPremiumCents: 0, annualFeeCents: 0, writtenFeeCents: 0, builderPending: true };

/**
 * A new policy checked whole: its policy type and line, its term, its answers, who it belongs
 * to and its structure (a quote's items and figures included). Whatever refuses the request
 * refuses it here, before any number is taken.
 */
export function draftPolicy(
  product: ProductCatalog,
  input: CreatePolicyInput,
  creator: PolicyCreator,
  external: ExternalQuoteParts | undefined,
  now: Date,
  services: CreationServices,
): PolicyDraft {
  const { policyType, line } = policyTypeAndLine(product, input.policy_type_id);
  const term = newTermDates(input, now);
  const lineDate = lineDateFor(line, term.effectiveDate);
  const underwritingQuestions = validateUnderwritingAnswers(product, input.underwriting_questions ?? [], []);
  const contacts = policyContactsFor(creator);
  const policyId = services.newId();
  // The quote's revision id follows from the policy's: bind and issue read it beside the policy (revision-ids.ts).
  const ids = { policyId, termId: services.newId(), revisionId: firstRevisionIdOf(policyId) };
  const at = { policyId: ids.policyId, revisionId: ids.revisionId, policyTypeId: policyType.id, today: term.effectiveDate, now };
  const structure = initialStructure(product, at, input.property_zip, external, services);
  return {
    ...ids,
    input,
    lineId: line.id,
    lineEffectiveDateId: lineDate.id,
    policyTypeId: policyType.id,
    policyTypeName: policyType.name,
    term,
    contacts,
    contactIds: contactIdsOf(contacts),
    underwritingQuestions,
    transactionType: external?.transactionType ?? 'new_business',
    fromExternalQuote: !!external,
    totals: external ? externalTotals(external, structure.items) : UNRATED,
    ...structure,
    createdAt: now,
  };
}

// ---------------------------------------------------------------- its records

function policyRecord(draft: PolicyDraft, policyNumber: string): PolicyRecord {
  return {
    entity: 'Policy',
    id: draft.policyId,
    policyNumber,
    manualPolicyNumber: !!draft.input.policy_number,
    lineId: draft.lineId,
    policyTypeId: draft.policyTypeId,
    agencyId: draft.contacts.agencyId,
    contactIds: draft.contactIds,
    contacts: draft.contacts,
    dateAdded: draft.createdAt.toISOString(),
    inceptionDate: draft.term.inceptionDate,
    activeRevisionId: draft.revisionId,
    activeTermId: draft.termId,
    active: false,
    rewritten: false,
    showApp: false,
    submitBound: false,
    flag: 'white',
    systemTags: [],
    policyGroupId: null,
    copiedFromRevId: null,
    copiedToRevId: null,
    submitReceiptEmail: '',
    submitReceiptName: '',
    submitConfirmEmail: '',
    submitConfirmName: '',
    externalSystemReference: draft.input.external_system_reference ?? null,
    transactionType: draft.transactionType,
    lastVisited: null,
    version: 1,
  };
}

function termRecord(draft: PolicyDraft): TermRecord {
  return {
    entity: 'PolicyTerm',
    id: draft.termId,
    policyId: draft.policyId,
    effectiveDate: draft.term.effectiveDate,
    expirationDate: draft.term.expirationDate,
    isRenewal: draft.input.is_renewal,
    termLength: draft.term.termLength,
    termType: draft.input.term_type,
    renewalType: draft.input.renewal_term_type,
    renewalStatus: '',
    renewalStatusDescription: '',
    manualReason: '',
    renewalStatusReasonId: null,
    revisionIds: [draft.revisionId],
    version: 1,
  };
}

function revisionRecord(draft: PolicyDraft, policyNumber: string): RevisionRecord {
  const rewrite = draft.transactionType === 'rewrite';
  return {
    entity: 'Revision',
    id: draft.revisionId,
    policyId: draft.policyId,
    policyTermId: draft.termId,
    policyNumber,
    lineId: draft.lineId,
    lineEffectiveDateId: draft.lineEffectiveDateId,
    policyTypeId: draft.policyTypeId,
    agencyId: draft.contacts.agencyId,
    contactIds: draft.contactIds,
    contacts: draft.contacts,
    revisionState: 'open',
    policyStatus: 'Unsubmitted',
    policyStatusReasonId: null,
    termStart: draft.term.effectiveDate,
    termEnd: draft.term.expirationDate,
    cancelDate: null,
    commitDate: null,
    createDate: todayIso(draft.createdAt),
    revisionDate: draft.term.effectiveDate,
    underwritingContactedDate: null,
    dateArchived: null,
    commissionRate: '0',
    ...draft.totals,
    decDescription: rewrite ? 'Rewrite' : 'New Business',
    description: draft.fromExternalQuote ? 'Created from an externally rated quote' : 'New Business',
    grantMortgageeExtension: false,
    overrideCommission: false,
    printDec: true,
    underwritingContacted: false,
    underwritingQuestions: draft.underwritingQuestions,
    underwritingOptions: draft.input.underwriting_options ?? [],
    creditReportPermissions: {},
    riskSequence: draft.risks.length,
    transactionType: draft.transactionType,
    partsInOneRecord: true,
    version: 1,
  };
}

/** The policy, its first term and its open revision, under the number allocated to them. */
export function policyRecordsFor(draft: PolicyDraft, policyNumber: string): { policy: PolicyRecord; term: TermRecord; revision: RevisionRecord } {
  return { policy: policyRecord(draft, policyNumber), term: termRecord(draft), revision: revisionRecord(draft, policyNumber) };
}
