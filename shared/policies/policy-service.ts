/** Creating and reading policies: create_policy, create_policy_from_externalquote, new_policy_information, the reads. */
import { randomUUID } from 'node:crypto';
import type { Principal } from '../platform/principal.js';
import type { ProductCatalog } from '../catalog/model.js';
import { getCarrierSettings, getProductCatalog } from '../catalog/store.js';
import { ADDITIONAL_INTEREST_ROLE_ID, AGENCY_ROLE_ID, AGENT_ROLE_ID, NAMED_INSURED_ROLE_ID } from '../contacts/roles.js';
import { policyLinkPut } from '../contacts/store.js';
import { getContactSummaries } from '../contacts/summaries.js';
import { lookupZip } from '../geography/zip-lookup.js';
import { todayIso } from '../platform/dates.js';
import { BusinessRuleError, NotFoundError } from '../platform/errors.js';
import { toCents, type Cents } from '../platform/money.js';
import { policyWithinReach, revisionWithinReach } from './access.js';
import { formatPolicyNumber, numberingYear } from './numbering.js';
import type {
  LineItemRecord,
  LocatorRecord,
  PolicyContacts,
  PolicyRecord,
  RevisionRecord,
  RevisionSnapshot,
  RevisionState,
  RiskRecord,
  SubLineRecord,
  TermRecord,
  UnderwritingAnswer,
  UnderwritingOption,
} from './records.js';
import { applyLocation, newRisk } from './risk-rules.js';
import {
  PolicyNumberTakenError,
  allocatePolicyNumberSequence,
  createPolicy as storePolicy,
  findPolicyIdByNumber,
  getRevisionHeaders,
  lastPolicyNumberSequence,
  loadRevision,
  type NewPolicyBundle,
} from './store.js';
import { findItemDefinition, newLineItem, startingStructure, withDefaultLimits } from './structure.js';
import { deduceTerm, expirationFor, monthsOf, type TermType } from './terms.js';
import { contactIdsToName, policyContactsToWire, policyToWire, revisionDetailsToWire, termToWire, type ContactNames } from './wire.js';
import { validateUnderwritingAnswers } from './underwriting.js';


// ---------------------------------------------------------------- new_policy_information

export async function newPolicyInformation(now = new Date()) {
  const [carrier, product] = await Promise.all([getCarrierSettings(), getProductCatalog()]);
  const year = numberingYear(now);
  const last = await lastPolicyNumberSequence(carrier.policyNumberPrefix, year);
  const line = product.lines.find((candidate) => candidate.default) ?? product.lines[0];
  return {
    next_policy_number: formatPolicyNumber(carrier.policyNumberPrefix, year, last + 1),
    effective_dates: line.effectiveDates.map((entry) => ({ ...entry })),
  };
}

// ---------------------------------------------------------------- create_policy

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
  limit?: string | number | null;
  deductible?: string | number | null;
  premium?: string | number | null;
  annual_premium?: string | number | null;
  written_premium?: string | number | null;
}

export interface ExternalRisk {
  name?: string;
  fields?: Record<string, unknown>;
  questions?: Record<string, unknown>;
  items?: ExternalItem[];
  [field: string]: unknown;
}

/**
 * The contacts' links to a new policy, in the role each plays on it, so that a contact's
 * aspect data lists its policies (retrieveAspectData `policies` / `associatedInfo`).
 */
function contactLinks(contacts: PolicyContacts, policy: { policyId: string; policyNumber: string; revisionId: string }) {
  const links: Array<[string | null, string]> = [
    [contacts.agentId, AGENT_ROLE_ID],
    [contacts.agencyId, AGENCY_ROLE_ID],
    ...contacts.namedInsuredIds.map((id): [string, string] => [id, NAMED_INSURED_ROLE_ID]),
    ...contacts.additionalInterestIds.map((id): [string, string] => [id, ADDITIONAL_INTEREST_ROLE_ID]),
  ];
  const linkedAt = new Date().toISOString();
  const seen = new Set<string>();
  // One link per contact: a transaction may not write the same item twice.
  return links
    .filter((link): link is [string, string] => !!link[0] && !seen.has(link[0]) && !!seen.add(link[0]))
    .map(([contactId, roleId]) => policyLinkPut(contactId, { policyId: policy.policyId, policyNumber: policy.policyNumber, revisionId: policy.revisionId, roleId }, linkedAt));
}

/** Called with the whole new policy just before it is written, so that another area may complete it (a quote rates it). */
export type PreparePolicy = (bundle: NewPolicyBundle) => Promise<NewPolicyBundle>;

export async function createPolicy(principal: Principal, input: CreatePolicyInput, external?: ExternalQuoteParts, now = new Date(), prepare?: PreparePolicy) {
  const [carrier, product] = await Promise.all([getCarrierSettings(), getProductCatalog()]);
  const policyTypeId = input.policy_type_id ?? (product.policyTypes.find((type) => type.default) ?? product.policyTypes[0]).id;
  const policyType = product.policyTypes.find((type) => type.id === policyTypeId);
  if (!policyType) throw new BusinessRuleError(`policy_type_id: ${policyTypeId} is not a policy type of the catalog`);
  const line = product.lines.find((candidate) => candidate.id === policyType.lineId) ?? product.lines[0];

  const today = todayIso(now);
  const inceptionDate = input.inception_date ?? today;
  const effectiveDate = input.effective_date ?? inceptionDate;
  let expirationDate: string;
  if (input.term_type === 'Custom') {
    if (!input.expiration_date) throw new BusinessRuleError('expiration_date: is required when term_type is Custom');
    expirationDate = input.expiration_date;
  } else {
    expirationDate = expirationFor(effectiveDate, input.term_type)!;
  }
  if (expirationDate <= effectiveDate) throw new BusinessRuleError('expiration_date: must be after the effective date');
  const lineDate = [...line.effectiveDates].sort((a, b) => b.effective_date.localeCompare(a.effective_date)).find((entry) => entry.effective_date <= effectiveDate);
  if (!lineDate) throw new BusinessRuleError(`effective_date: the ${line.name} line has no rates effective on ${effectiveDate}`);
  const underwritingQuestions = validateUnderwritingAnswers(product, input.underwriting_questions ?? [], []);
  if (input.manual_policy_number && !input.policy_number) throw new BusinessRuleError('policy_number: is required when manual_policy_number is true');

  const contacts: PolicyContacts = {
    creatorId: principal.contactId,
    agentId: input.as_agent ? principal.contactId : null,
    agencyId: principal.agencyIds[0] ?? null,
    namedInsuredIds: [],
    additionalInterestIds: [],
  };
  const contactIds = [...new Set(contactIdsToName(contacts))];

  const policyId = randomUUID();
  const termId = randomUUID();
  const revisionId = randomUUID();
  const nowIso = now.toISOString();
  const deduced = input.term_type === 'Custom' ? deduceTerm(effectiveDate, expirationDate) : { termLength: monthsOf(input.term_type)! };

  const build = (policyNumber: string) => {
    const policy: PolicyRecord = {
      entity: 'Policy',
      id: policyId,
      policyNumber,
      manualPolicyNumber: input.manual_policy_number || !!input.policy_number,
      lineId: line.id,
      policyTypeId,
      agencyId: contacts.agencyId,
      contactIds,
      contacts,
      dateAdded: nowIso,
      inceptionDate,
      activeRevisionId: revisionId,
      activeTermId: termId,
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
      externalSystemReference: input.external_system_reference ?? null,
      transactionType: external?.transactionType ?? 'new_business',
      lastVisited: null,
      version: 1,
    };
    const term: TermRecord = {
      entity: 'PolicyTerm',
      id: termId,
      policyId,
      effectiveDate,
      expirationDate,
      isRenewal: input.is_renewal,
      termLength: deduced.termLength,
      termType: input.term_type,
      renewalType: input.renewal_term_type,
      renewalStatus: '',
      renewalStatusDescription: '',
      manualReason: '',
      renewalStatusReasonId: null,
      revisionIds: [revisionId],
      version: 1,
    };
    const revision: RevisionRecord = {
      entity: 'Revision',
      id: revisionId,
      policyId,
      policyTermId: termId,
      policyNumber,
      lineId: line.id,
      lineEffectiveDateId: lineDate.id,
      policyTypeId,
      agencyId: contacts.agencyId,
      contactIds,
      contacts,
      revisionState: 'open',
      policyStatus: 'Unsubmitted',
      policyStatusReasonId: null,
      termStart: effectiveDate,
      termEnd: expirationDate,
      cancelDate: null,
      commitDate: null,
      createDate: today,
      revisionDate: effectiveDate,
      underwritingContactedDate: null,
      dateArchived: null,
      commissionRate: '0',
      writtenFeeCents: 0,
      writtenPremiumCents: 0,
      annualFeeCents: 0,
      annualPremiumCents: 0,
      decDescription: external?.transactionType === 'rewrite' ? 'Rewrite' : 'New Business',
      description: external ? 'Created from an externally rated quote' : 'New Business',
      grantMortgageeExtension: false,
      overrideCommission: false,
      printDec: true,
      underwritingContacted: false,
      builderPending: true,
      underwritingQuestions,
      underwritingOptions: input.underwriting_options ?? [],
      creditReportPermissions: {},
      riskSequence: 0,
      transactionType: external?.transactionType ?? 'new_business',
      version: 1,
    };
    return { policy, term, revision };
  };

  const structure = initialStructure(product, { policyId, revisionId, policyTypeId, today: effectiveDate, now }, input.property_zip, external);

  let attempts = 0;
  for (;;) {
    attempts += 1;
    const policyNumber = input.policy_number ?? (await nextPolicyNumber(carrier.policyNumberPrefix, now));
    if (input.policy_number && (await findPolicyIdByNumber(policyNumber))) throw new PolicyNumberTakenError(policyNumber);
    const { policy, term, revision } = build(policyNumber);
    revision.riskSequence = structure.risks.length;
    if (external) Object.assign(revision, externalTotals(external, structure.items));
    try {
      const bundle: NewPolicyBundle = {
        policy,
        term,
        revision,
        parts: [...structure.risks, ...structure.subLines, ...structure.items],
        locators: structure.locators,
        linkedWrites: contactLinks(contacts, { policyId, policyNumber, revisionId }),
      };
      await storePolicy(prepare ? await prepare(bundle) : bundle);
    } catch (error) {
      // A system number can collide with a number someone typed by hand: take the next one.
      if (error instanceof PolicyNumberTakenError && !input.policy_number && attempts < 5) continue;
      throw error;
    }
    const snapshot: RevisionSnapshot = { header: revision, risks: structure.risks, subLines: structure.subLines, items: structure.items, mortgagees: [] };
    const names = await getContactSummaries(contactIds);
    return {
      policy_id: policyId,
      revision_id: revisionId,
      policy_term_id: termId,
      policy_number: policyNumber,
      revision_data: revisionDetailsToWire(snapshot, { policyTypeName: policyType.name, names }),
      policy_contacts: policyContactsToWire(contacts, names),
    };
  }
}

async function nextPolicyNumber(prefix: string, now: Date): Promise<string> {
  const year = numberingYear(now);
  return formatPolicyNumber(prefix, year, await allocatePolicyNumberSequence(prefix, year));
}

/** The revision's starting sub lines and items, plus a property for `property_zip` or the quote's risks. */
function initialStructure(
  product: ProductCatalog,
  at: { policyId: string; revisionId: string; policyTypeId: string; today: string; now: Date },
  propertyZip: string | undefined,
  external: ExternalQuoteParts | undefined,
) {
  const placement = { revisionId: at.revisionId, riskId: null, policyTypeId: at.policyTypeId, today: at.today, now: at.now };
  const policyLevel = startingStructure(product, placement, 'policy', randomUUID);
  const risks: RiskRecord[] = [];
  const subLines: SubLineRecord[] = [...policyLevel.subLines];
  let items: LineItemRecord[] = [...policyLevel.items];
  const locators: LocatorRecord[] = policyLevel.subLines.map((subLine) => locatorFor(subLine.id, 'subline', at, null));

  const addRisk = (configure: (risk: RiskRecord) => RiskRecord) => {
    const risk = configure(
      newRisk({ id: randomUUID(), revisionId: at.revisionId, policyId: at.policyId, sequence: risks.length + 1, primary: risks.length === 0, now: at.now }),
    );
    risks.push(risk);
    locators.push(locatorFor(risk.id, 'risk', at, risk.id));
    const property = startingStructure(product, { ...placement, riskId: risk.id }, 'property', randomUUID);
    subLines.push(...property.subLines);
    items.push(...property.items);
    locators.push(...property.subLines.map((subLine) => locatorFor(subLine.id, 'subline', at, risk.id)));
    return risk;
  };

  if (external) {
    external.risks.forEach((quoteRisk, index) => {
      const risk = addRisk((fresh) => externalRisk(fresh, quoteRisk, product));
      items = applyExternalItems(product, items, quoteRisk.items ?? [], { ...placement, riskId: risk.id }, subLines, `quote.risks.${index}.items`);
    });
    items = applyExternalItems(product, items, external.items, placement, subLines, 'quote.items');
  } else if (propertyZip) {
    addRisk((fresh) => applyLocation(fresh, { address_zip: propertyZip }, { soft: false, hard: false, lookup: lookupZip }));
  }
  return { risks, subLines, items: withDefaultLimits(items, product), locators };
}

function locatorFor(id: string, kind: LocatorRecord['kind'], at: { revisionId: string; policyId: string }, riskId: string | null): LocatorRecord {
  return { entity: 'Locator', id, kind, revisionId: at.revisionId, policyId: at.policyId, riskId };
}

// ---------------------------------------------------------------- external quotes

const ADDRESS_FIELDS = ['address_line1', 'address_line2', 'address_city', 'address_state', 'address_zip', 'year_built', 'flood_zone_code', 'distance_to_coast', 'property_val', 'gross_area', 'stories', 'type'] as const;

function externalRisk(risk: RiskRecord, quoteRisk: ExternalRisk, product: ProductCatalog): RiskRecord {
  const source: Record<string, unknown> = { ...(quoteRisk.fields ?? {}), ...quoteRisk };
  const next: RiskRecord = { ...risk };
  for (const field of ADDRESS_FIELDS) {
    const value = source[field];
    if (value !== undefined && value !== null && value !== '') (next as unknown as Record<string, unknown>)[field] = String(value);
  }
  if (typeof quoteRisk.name === 'string' && quoteRisk.name) next.name = quoteRisk.name;
  if (typeof source.latitude === 'number') next.latitude = source.latitude;
  if (typeof source.longitude === 'number') next.longitude = source.longitude;
  const answers: Record<string, string> = {};
  for (const question of product.questions.filter((candidate) => candidate.level === 'property')) {
    const value = quoteRisk.questions?.[question.id] ?? quoteRisk.questions?.[question.name] ?? source[question.id] ?? source[question.name];
    if (value !== undefined && value !== null && value !== '') answers[question.id] = String(Array.isArray(value) ? value[0] : value);
  }
  next.questions = answers;
  next.addressAccuracy = next.address_zip ? 'fair' : 'poor';
  return next;
}

function amountOrNull(value: string | number | null | undefined, field: string): Cents | null {
  if (value === undefined || value === null || value === '') return null;
  try {
    return toCents(value);
  } catch {
    throw new BusinessRuleError(`${field}: must be a decimal amount`);
  }
}

/** Sets limits, deductibles and the given premiums of the quote's items, adding optional ones. */
function applyExternalItems(
  product: ProductCatalog,
  items: LineItemRecord[],
  quoteItems: ExternalItem[],
  placement: { revisionId: string; riskId: string | null; policyTypeId: string; today: string; now: Date },
  subLines: SubLineRecord[],
  path: string,
): LineItemRecord[] {
  const result = [...items];
  quoteItems.forEach((quoteItem, index) => {
    const field = `${path}.${index}`;
    const key = quoteItem.item_id ?? quoteItem.id;
    const definition = key
      ? findItemDefinition(product, key)
      : product.items.find((candidate) => candidate.name.toLowerCase() === String(quoteItem.name ?? '').trim().toLowerCase());
    if (!definition) throw new BusinessRuleError(`${field}: ${key ?? quoteItem.name ?? 'the item'} is not an item of the catalog`);
    if (!definition.availability[placement.policyTypeId]) throw new BusinessRuleError(`${field}: ${definition.name} is not offered on this policy type`);
    const riskId = definition.category === 'property' ? placement.riskId : null;
    if (definition.category === 'property' && !riskId) throw new BusinessRuleError(`${field}: ${definition.name} is a property item; list it under its risk`);
    let position = result.findIndex((item) => item.itemId === definition.id && item.riskId === riskId);
    if (position < 0) {
      const subLine = subLines.find((candidate) => candidate.subLineId === definition.subLineId && candidate.riskId === riskId);
      if (!subLine) throw new BusinessRuleError(`${field}: the sub line of ${definition.name} is not on the policy`);
      result.push(newLineItem(definition, { ...placement, riskId, subLineInstanceId: subLine.id }, randomUUID()));
      position = result.length - 1;
    }
    const item = { ...result[position] };
    const limit = amountOrNull(quoteItem.limit, `${field}.limit`);
    if (limit !== null) Object.assign(item, { limitCents: limit, limitIsDefault: false });
    const deductible = amountOrNull(quoteItem.deductible, `${field}.deductible`);
    if (deductible !== null) item.deductibleCents = deductible;
    const annual = amountOrNull(quoteItem.annual_premium ?? quoteItem.premium, `${field}.premium`);
    const written = amountOrNull(quoteItem.written_premium, `${field}.written_premium`) ?? annual;
    if (annual !== null) {
      const isFee = definition.type === 'fee';
      Object.assign(item, isFee
        ? { annualFeeCents: annual, writtenFeeCents: written, premiumSource: 'external' }
        : { annualPremiumCents: annual, writtenPremiumCents: written, premiumSource: 'external' });
    }
    result[position] = item;
  });
  return result;
}

function externalTotals(external: ExternalQuoteParts, items: readonly LineItemRecord[]): Partial<RevisionRecord> {
  const sumOf = (pick: (item: LineItemRecord) => Cents | null) => items.reduce((total, item) => total + (pick(item) ?? 0), 0);
  const given = external.premiums;
  const read = (value: string | number | undefined, field: string, fallback: Cents) => amountOrNull(value, `quote.premiums.${field}`) ?? fallback;
  const annualPremium = read(given.annual_premium, 'annual_premium', sumOf((item) => item.annualPremiumCents));
  const annualFee = read(given.annual_fee, 'annual_fee', sumOf((item) => item.annualFeeCents));
  // A stated annual figure without a written one is a full term: written equals annual.
  const writtenFallback = (stated: unknown, annual: Cents, itemsWritten: Cents) => (stated !== undefined && stated !== null && stated !== '' ? annual : itemsWritten || annual);
  return {
    annualPremiumCents: annualPremium,
    writtenPremiumCents: read(given.written_premium, 'written_premium', writtenFallback(given.annual_premium, annualPremium, sumOf((item) => item.writtenPremiumCents))),
    annualFeeCents: annualFee,
    writtenFeeCents: read(given.written_fee, 'written_fee', writtenFallback(given.annual_fee, annualFee, sumOf((item) => item.writtenFeeCents))),
    builderPending: false,
  };
}

// ---------------------------------------------------------------- reads

async function names(ids: readonly string[]): Promise<ContactNames> {
  return ids.length ? getContactSummaries(ids) : new Map();
}

async function policyTypeName(policyTypeId: string): Promise<string> {
  const product = await getProductCatalog();
  return product.policyTypes.find((type) => type.id === policyTypeId)?.name ?? '';
}

export async function revisionDetails(snapshot: RevisionSnapshot, detailed = false) {
  const contactNames = await names([...contactIdsToName(snapshot.header.contacts), ...snapshot.mortgagees.map((mortgagee) => mortgagee.contactId)]);
  return revisionDetailsToWire(snapshot, { policyTypeName: await policyTypeName(snapshot.header.policyTypeId), names: contactNames, detailed });
}

export async function retrieveRevisionDetails(principal: Principal, revisionId: string, includeContactDetails: boolean) {
  const snapshot = await revisionWithinReach(principal, revisionId);
  return revisionDetails(snapshot, includeContactDetails);
}

export async function retrievePolicy(
  principal: Principal,
  input: { policy_id?: string; policy_number?: string; revision_state?: RevisionState; revision_id?: string },
) {
  const { policy, terms } = await policyWithinReach(principal, { policyId: input.policy_id, policyNumber: input.policy_number });
  const revisions = await getRevisionHeaders(terms.flatMap((term) => term.revisionIds));
  let chosen: RevisionRecord | undefined;
  if (input.revision_id) {
    chosen = revisions.find((revision) => revision.id === input.revision_id);
    if (!chosen) throw new NotFoundError(`Revision ${input.revision_id} of policy ${policy.policyNumber}`);
  } else if (input.revision_state) {
    // The most recent revision in that state: the latest term first, then the latest revision date.
    chosen = [...revisions]
      .filter((revision) => revision.revisionState === input.revision_state)
      .sort((a, b) => b.termStart.localeCompare(a.termStart) || b.revisionDate.localeCompare(a.revisionDate) || b.createDate.localeCompare(a.createDate))[0];
    if (!chosen) throw new BusinessRuleError(`revision_state: policy ${policy.policyNumber} has no ${input.revision_state} revision`);
  } else {
    chosen = revisions.find((revision) => revision.id === policy.activeRevisionId) ?? revisions[revisions.length - 1];
  }
  const snapshot = chosen ? await loadRevision(chosen.id) : undefined;
  const term = terms.find((candidate) => candidate.id === (chosen?.policyTermId ?? policy.activeTermId));
  const contactNames = await names([...policy.contactIds, ...(snapshot?.mortgagees.map((mortgagee) => mortgagee.contactId) ?? [])]);
  const typeName = await policyTypeName(chosen?.policyTypeId ?? policy.policyTypeId);
  return policyToWire(policy, {
    activeRevision: snapshot ? revisionDetailsToWire(snapshot, { policyTypeName: typeName, names: contactNames }) : null,
    activeTerm: term ? termToWire(term, revisions.filter((revision) => revision.policyTermId === term.id)) : null,
    policyContacts: policyContactsToWire(policy.contacts, contactNames),
  });
}

export async function retrievePolicyTerms(principal: Principal, input: { policy_id?: string; policy_number?: string }) {
  const { terms } = await policyWithinReach(principal, { policyId: input.policy_id, policyNumber: input.policy_number });
  const revisions = await getRevisionHeaders(terms.flatMap((term) => term.revisionIds));
  return terms.map((term) => termToWire(term, revisions.filter((revision) => revision.policyTermId === term.id)));
}
