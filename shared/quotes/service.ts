/**
 * Quoting by names: create_quote, create_quote_extended and requote_extended read the
 * request against the catalog, build the revision whole, rate it and run straight-through
 * processing before anything is written or any policy number is taken; the policy, its
 * structure, premiums, step traces, STP result, the named insureds' new contacts and their
 * links are then one transaction (the policies area's create). A requote adds the
 * retirement of the quote it replaces to that same transaction.
 */
import { randomUUID } from 'node:crypto';
import { type ProductCatalog, getCarrierSettings, getProductCatalog, notWrittenProblem, productForFiling, resolveFiling } from '../catalog/index.js';
import { ADDITIONAL_INTEREST_ROLE_ID as ADDITIONAL_INTEREST_ROLE, AGENCY_ROLE_ID, AGENT_ROLE_ID, NAMED_INSURED_ROLE_ID, agencyIdByNumber, newContactsOf, getContact, plainContactRecords, policyLinkRemoval, policyLinkOf, type NewContactRecords } from '../contacts/index.js';
import { addMonths, todayIso } from '../platform/dates.js';
import { moratoriumWarnings } from '../moratoriums/index.js';
import { DataWithMessages } from '../platform/envelope.js';
import { BusinessRuleError } from '../platform/errors.js';
import type { Principal } from '../platform/principal.js';
import {
  applyRating,
  buildRevisionStructure,
  contactRoles,
  storeNewPolicy,
  NO_UNDERWRITING,
  policyWithinReach,
  quoteRetirement,
  revisionToRate,
  revisionWithinReach,
  type BuiltStructure,
  type NewPolicyBundle,
  type PolicyContacts,
  type RevisionRecord,
  type RevisionSnapshot,
} from '../policies/index.js';
import type { TransactionWrite } from '../platform/transactions.js';
import { rateRevision, type RatedRevision } from '../rating/index.js';
import { searchRemovalOf, getSearchRecord } from '../search/index.js';
import { straightThrough } from '../underwriting/index.js';
import type { PlannedItem, QuoteInfo, QuoteParty, QuotePlan, QuoteResult } from './model.js';
import { dateBoundProblem, planQuote } from './plan.js';
import { quoteResult } from './result.js';
import { clock } from '../platform/clock.js';

export interface QuoteOptions {
  runUwRules: boolean;
  runStateless: boolean;
  hardGeoBypass: boolean;
  extended: boolean;
  /** Writes that must land with the new quote, given its id and number (requote: retiring the quote it replaces). */
  retiring?: (replacement: { policyId: string; policyNumber: string }) => TransactionWrite[];
}

async function checkDateBounds(principal: Principal, effectiveDate: string, now: Date): Promise<void> {
  if (principal.isAdministrator) return;
  const settings = (await getCarrierSettings()).advancedSettings;
  const bounds = { future: Number(settings['application-future-date-bound'] ?? 90), past: Number(settings['application-past-date-bound'] ?? 0) };
  const problem = dateBoundProblem(effectiveDate, todayIso(now), bounds);
  if (problem) throw new BusinessRuleError(problem);
}

/** The agency the quote belongs to: `agency_number` wins over `agency_id`; an agent quotes only for its own agencies. */
async function agencyOf(principal: Principal, info: QuoteInfo): Promise<string | null> {
  const wanted = info.agency_number ?? info.agency_id;
  if (!wanted) return principal.agencyIds[0] ?? null;
  const field = info.agency_number ? 'quote_info.agency_number' : 'quote_info.agency_id';
  // An agency number finds the agency whose Agency role carries it (storeRoles' agencyNumber); clients that send the agency's id there are still served.
  const agencyId = info.agency_number ? ((await agencyIdByNumber(info.agency_number)) ?? info.agency_number) : wanted;
  const agency = await getContact(agencyId);
  const reachable = principal.scope === 'all' || principal.agencyIds.includes(agencyId);
  if (!agency || !agency.roleIds.includes(AGENCY_ROLE_ID) || !reachable) throw new BusinessRuleError(`${field}: agency ${wanted.slice(0, 100)} was not found`);
  return agency.id;
}

/**
 * The quote's structure as the state of its primary location sells the line: built once to
 * learn where the location lies (its ZIP's state), refused naming the line and the state
 * where the line is not written (or not yet on the effective date), and built again with the
 * state's charges when its filing has any.
 */
function structureFor(product: ProductCatalog, plan: QuotePlan, at: { policyId: string; revisionId: string; now: Date }, hardGeoBypass: boolean): BuiltStructure {
  const built = structureOf(product, plan, at, hardGeoBypass);
  const primaryIndex = Math.max(0, plan.locations.findIndex((location) => location.primary));
  const filing = resolveFiling(product, built.risks[primaryIndex]?.address_state ?? null);
  const problem = notWrittenProblem(product, filing, { date: plan.effectiveDate, basis: 'new_business' });
  if (problem) throw new BusinessRuleError(`quote_info.locations.${primaryIndex}.address_zip: ${problem}`);
  const stateProduct = productForFiling(product, filing);
  return stateProduct === product ? built : structureOf(stateProduct, plan, at, hardGeoBypass);
}

function structureOf(product: ProductCatalog, plan: QuotePlan, at: { policyId: string; revisionId: string; now: Date }, hardGeoBypass: boolean): BuiltStructure {
  return buildRevisionStructure(
    product,
    {
      policyTypeId: plan.policyTypeId,
      hardGeoBypass,
      locations: plan.locations.map(({ location, answers, primary }) => ({
        change: { ...pick(location, ['name', 'address_line1', 'address_line2', 'address_city', 'address_state', 'address_zip', 'year_built', 'latitude', 'longitude']) },
        answers,
        primary,
      })),
      items: plan.items.map((item, index) => ({ ...item, field: `quote_info.items.${index}` })),
    },
    { ...at, today: plan.effectiveDate },
    randomUUID,
  );
}

function pick<T extends object>(source: T, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((key) => (source as Record<string, unknown>)[key] !== undefined).map((key) => [key, (source as Record<string, unknown>)[key]]));
}

/** Rates and runs STP on a revision built in memory. */
function rateBuilt(product: ProductCatalog, plan: QuotePlan, header: RevisionRecord, built: BuiltStructure, runUwRules: boolean) {
  const snapshot: RevisionSnapshot = { header, risks: built.risks, subLines: built.subLines, items: built.items, mortgagees: [] };
  const input = revisionToRate(snapshot);
  const rated = rateRevision(product, input);
  const stp = runUwRules ? straightThrough(product, input) : null;
  const itemPlaces = new Map<string, PlannedItem>();
  for (const planned of plan.items) {
    const riskId = planned.location === null ? null : built.risks[planned.location].id;
    const line = built.items.find((item) => item.itemId === planned.itemId && item.riskId === riskId);
    if (line) itemPlaces.set(line.id, planned);
  }
  return { snapshot, rated, stp, itemPlaces, applied: applyRating(snapshot, rated) };
}

const questionNames = (product: ProductCatalog) => new Map(product.questions.map((question) => [question.id, question.name]));

export async function createQuote(principal: Principal, info: QuoteInfo, options: QuoteOptions, now = clock.now()): Promise<QuoteResult> {
  // The reads are independent: started together (one round trip before the number is taken),
  // awaited in the order their refusals have always been answered in.
  const reads = [getProductCatalog(), checkDateBounds(principal, info.effective_date, now), agencyOf(principal, info), agentOf(info)] as const;
  for (const read of reads) read.catch(() => undefined);
  const product = await reads[0];
  await reads[1];
  const plan = planQuote(product, info);
  const agencyId = await reads[2];
  const agentId = await reads[3];
  if (options.runStateless) return statelessQuote(product, plan, options);
  let result: QuoteResult | undefined;
  // storeNewPolicy runs the completion once before it takes a number, so a rating failure or an
  // oversized quote is refused without using one up; the completion itself writes nothing.
  await storeNewPolicy(
    principal,
    {
      policy_type_id: plan.policyTypeId,
      effective_date: plan.effectiveDate,
      inception_date: plan.inceptionDate,
      ...(info.policy_number && !options.retiring ? { policy_number: info.policy_number } : {}),
      manual_policy_number: !!info.policy_number && !options.retiring,
      term_type: '1 Year',
      renewal_term_type: '1 Year',
      is_renewal: false,
      as_agent: false,
      underwriting_questions: plan.underwritingAnswers,
      underwriting_options: info.underwriting_options ?? [],
    },
    undefined,
    now,
    async (bundle) => {
      const prepared = completeQuote(product, plan, info, { principal, agencyId, agentId, options, now }, bundle);
      result = prepared.result;
      return prepared.bundle;
    },
  );
  return result!;
}

/**
 * requote_extended: replaces an unissued quote by a new one built from the request. The
 * new quote's create transaction also retires the old one (its number stops finding it),
 * so either both happen or neither does; a change of the old quote meanwhile fails it.
 */
export async function requoteQuote(principal: Principal, policyNumber: string, info: QuoteInfo, options: Omit<QuoteOptions, 'retiring' | 'runStateless'>, now = clock.now()): Promise<QuoteResult> {
  const { policy } = await policyWithinReach(principal, { policyNumber });
  const header = (await revisionWithinReach(principal, policy.activeRevisionId)).header;
  if (header.revisionState !== 'open' || policy.active) {
    throw new BusinessRuleError(`policy_number: policy ${policy.policyNumber} is ${header.policyStatus} (revision ${header.revisionState}); only an unissued quote can be requoted`);
  }
  // The replaced quote leaves the search index in the same transaction.
  const indexed = await getSearchRecord(policy.id);
  const retiring = (replacement: { policyId: string; policyNumber: string }) => [
    ...(indexed ? searchRemovalOf(indexed) : []),
    ...quoteRetirement(policy, header, { at: now.toISOString(), replacedByPolicyId: replacement.policyId, replacedByPolicyNumber: replacement.policyNumber }),
    ...[...new Set(policy.contactIds)].map((contactId) => policyLinkRemoval(contactId, policy.id)),
  ];
  return createQuote(principal, { ...info, policy_number: undefined }, { ...options, runStateless: false, retiring }, now);
}

/**
 * A quote's answer with a warning for every moratorium in force over one of its properties: the
 * quote still rates (and is stored), but binding it will be refused while the moratorium lasts.
 */
export async function withMoratoriumWarnings(quoted: QuoteResult | Promise<QuoteResult>, info: Pick<QuoteInfo, 'locations' | 'policy_type_name'>, now = clock.now()): Promise<QuoteResult | DataWithMessages> {
  // The warnings depend on the request alone: read while the quote is made, not after it (a refused quote still answers its own error).
  const warned = moratoriumWarnings({ properties: info.locations.map((location) => ({ zip: location.address_zip ?? null, state: location.address_state ?? null })), policyTypeName: info.policy_type_name, at: now });
  warned.catch(() => undefined);
  const result = await quoted;
  const warnings = await warned;
  return warnings.length ? new DataWithMessages(result, warnings) : result;
}

/**
 * A quote request rated in memory as create_quote_extended would rate it (the plan, the
 * structure of its state, the engine), with the properties it built: product worksheets are
 * rated this way. Nothing is read or written.
 */
export function rateQuoteInMemory(product: ProductCatalog, info: QuoteInfo): { rated: RatedRevision; propertyIds: string[] } {
  const plan = planQuote(product, info);
  const header = { policyTypeId: plan.policyTypeId, termStart: plan.effectiveDate, termEnd: addMonths(plan.effectiveDate, 12), underwritingQuestions: plan.underwritingAnswers, transactionType: 'new_business' } as RevisionRecord;
  const built = structureFor(product, plan, { policyId: randomUUID(), revisionId: randomUUID(), now: new Date(0) }, false);
  const { rated } = rateBuilt(product, plan, header, built, false);
  return { rated, propertyIds: built.risks.map((risk) => risk.id) };
}

/** Rates and answers a quote built in memory; nothing is written, not even a policy number. */
function statelessQuote(product: ProductCatalog, plan: QuotePlan, options: QuoteOptions): QuoteResult {
  const header = { policyTypeId: plan.policyTypeId, termStart: plan.effectiveDate, termEnd: addMonths(plan.effectiveDate, 12), underwritingQuestions: plan.underwritingAnswers } as RevisionRecord;
  const built = structureFor(product, plan, { policyId: randomUUID(), revisionId: randomUUID(), now: clock.now() }, options.hardGeoBypass);
  const { rated, stp, itemPlaces } = rateBuilt(product, plan, header, built, options.runUwRules);
  return quoteResult(plan, rated, { itemPlaces, questionNames: questionNames(product), stp, extended: options.extended }, { quoteNumber: null, policyId: null });
}


/** Fills the new policy's bundle: the quote's structure rated, STP, the named insureds' contacts and links. Writes nothing. */
function completeQuote(
  product: ProductCatalog,
  plan: QuotePlan,
  info: QuoteInfo,
  context: { principal: Principal; agencyId: string | null; agentId: string | null; options: QuoteOptions; now: Date },
  bundle: NewPolicyBundle,
): { bundle: NewPolicyBundle; result: QuoteResult } {
  const built = structureFor(product, plan, { policyId: bundle.policy.id, revisionId: bundle.revision.id, now: context.now }, context.options.hardGeoBypass);
  const { rated, stp, itemPlaces, applied } = rateBuilt(product, plan, bundle.revision, built, context.options.runUwRules);
  const result = quoteResult(plan, rated, { itemPlaces, questionNames: questionNames(product), stp, extended: context.options.extended }, {
    quoteNumber: bundle.policy.policyNumber,
    policyId: bundle.policy.id,
  });
  const { contacts, records } = quoteContacts(info, context, bundle.policy.contacts.creatorId);
  const contactIds = [...new Set([contacts.creatorId, contacts.agentId, contacts.agencyId, ...contacts.namedInsuredIds, ...contacts.additionalInterestIds].filter((id): id is string => !!id))];
  const shared = { contacts, contactIds, agencyId: contacts.agencyId };
  const underwriting = { ...NO_UNDERWRITING, stp: stp ? { ran: true, success: stp.success, decision: stp.decision, details: stp.details, at: context.now.toISOString() } : null };
  const revision: RevisionRecord = { ...bundle.revision, ...shared, ...applied.totals, builderPending: false, riskSequence: built.risks.length, underwriting };
  const links = linkWrites(contacts, { policyId: bundle.policy.id, policyNumber: bundle.policy.policyNumber, revisionId: revision.id });
  const retiring = context.options.retiring?.({ policyId: bundle.policy.id, policyNumber: bundle.policy.policyNumber }) ?? [];
  return {
    result,
    bundle: {
      ...bundle,
      policy: { ...bundle.policy, ...shared },
      revision,
      parts: [...built.risks, ...built.subLines, ...applied.items],
      contactLinks: links,
      namedInsuredNames: info.named_insureds.map((party) => party.name),
      // The named insureds' contacts are created in the policy's own transaction: a refused policy leaves none behind.
      handedWrites: [...(bundle.handedWrites ?? []), ...newContactsOf(records), ...retiring],
    },
  };
}

/** The agent named by the quote, checked before anything is written. */
async function agentOf(info: QuoteInfo): Promise<string | null> {
  if (!info.agent_id) return null;
  const agent = await getContact(info.agent_id);
  if (!agent || !agent.roleIds.includes(AGENT_ROLE_ID)) throw new BusinessRuleError(`quote_info.agent_id: agent ${info.agent_id.slice(0, 100)} was not found`);
  return agent.id;
}

/**
 * The contact records of a quote party, with the phones, emails and addresses existing clients
 * send, shaped as storeNewContact stores them: on the profile (what lookupContactByName and the
 * listings read) and as the contact's own records, through the contacts area's one builder.
 */
function partyRecords(party: QuoteParty, roleId: string, context: { principal: Principal; agencyId: string | null }): NewContactRecords {
  const type = party.type && party.type.toLowerCase() === 'organization' ? 'organization' : 'individual';
  return plainContactRecords({
    id: randomUUID(),
    name: party.name,
    type,
    roleIds: [roleId],
    agencyIds: context.agencyId ? [context.agencyId] : [],
    createdBy: context.principal.contactId,
    phoneNumbers: (party.phones ?? []).map((phone) => ({ id: randomUUID(), phone: phone.number, ...(phone.type ? { phoneType: phone.type } : {}) })),
    emailAddresses: (party.emails ?? []).map((email) => ({ id: randomUUID(), email: email.email, ...(email.type ? { emailType: email.type } : {}) })),
    addresses: (party.addresses ?? [])
      .filter((address) => address.address_line1)
      .map((address) => ({
        id: randomUUID(),
        addressLine1: address.address_line1!,
        // storeNewContact's default country, so that the same address reads back the same whichever call stored it.
        addressCountry: address.address_country ?? 'USA',
        ...(address.address_line2 ? { addressLine2: address.address_line2 } : {}),
        ...(address.address_city ? { addressCity: address.address_city } : {}),
        ...(address.address_state ? { addressState: address.address_state } : {}),
        ...(address.address_zip ? { addressZip: address.address_zip } : {}),
        ...(address.type ? { addressType: address.type } : {}),
      })),
  });
}

/** Named insureds and additional interests become new contacts (records only: the policy's transaction writes them). */
function quoteContacts(info: QuoteInfo, context: { principal: Principal; agencyId: string | null; agentId: string | null }, creatorId: string): { contacts: PolicyContacts; records: NewContactRecords[] } {
  const namedInsureds = info.named_insureds.map((party) => partyRecords(party, NAMED_INSURED_ROLE_ID, context));
  const interests = (info.additional_interests ?? []).map((party) => partyRecords(party, ADDITIONAL_INTEREST_ROLE, context));
  return {
    contacts: {
      creatorId,
      agentId: context.agentId,
      agencyId: context.agencyId,
      namedInsuredIds: namedInsureds.map((records) => records.contact.id),
      additionalInterestIds: interests.map((records) => records.contact.id),
    },
    records: [...namedInsureds, ...interests],
  };
}

function linkWrites(contacts: PolicyContacts, policy: { policyId: string; policyNumber: string; revisionId: string }) {
  // The roles a new policy links its contacts in are the policies area's rule (contactRoles), written once.
  return contactRoles(contacts).map(({ contactId, roleId }) => policyLinkOf(contactId, { ...policy, roleId }));
}
