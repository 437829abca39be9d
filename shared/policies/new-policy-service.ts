/** Creating a policy: new_policy_information and create_policy (create_policy_from_externalquote ends here too). */
import { randomUUID } from 'node:crypto';
import { getCarrierSettings, getProductCatalog, productForFiling, resolveFiling, type ProductCatalog } from '../catalog/index.js';
import { AGENT_ROLE_ID, getContact, policyLinkOf, getContactSummaries } from '../contacts/index.js';
import { eventOf } from '../events/index.js';
import { lookupZip } from '../geography/index.js';
import { BusinessRuleError } from '../platform/errors.js';
import type { Principal } from './access.js';
import type { CreatePolicyInput, ExternalQuoteParts, NewPolicyBundle, NumberSequence, PolicyCreator, PolicyDraft } from './model.js';
import { contactRoles, draftPolicy, policyRecordsFor } from './new-policy.js';
import { firstFreeNumber, formatPolicyNumber, numberingYear } from './numbering.js';
import {
  PolicyNumberTakenError,
  allocatePolicyNumberSequence,
  assertNewPolicyFits,
  createPolicy as storePolicy,
  isPolicyNumberTaken,
  lastPolicyNumberSequence,
} from './store.js';
import { policyContactsToWire, revisionDetailsToWire } from './wire.js';
import { clock } from '../platform/clock.js';

/** How many numbers typed by hand in a row the allocator passes over before it gives up. */
const MAX_PASSED_OVER = 1000;
/** How many times a create is tried again when its system number was taken meanwhile. */
const MAX_CREATE_ATTEMPTS = 5;

async function sequenceOf(now: Date): Promise<NumberSequence> {
  return { prefix: (await getCarrierSettings()).policyNumberPrefix, year: numberingYear(now) };
}

const noFreeNumber = (sequence: NumberSequence) =>
  new BusinessRuleError(`policy_number: the next ${MAX_PASSED_OVER} numbers of ${sequence.prefix}-${sequence.year} are all taken; give a policy number`);

// ---------------------------------------------------------------- new_policy_information

/** The number the next create will get (not allocated), passing over numbers typed by hand. */
export async function newPolicyInformation(now = clock.now()) {
  const [sequence, product] = await Promise.all([sequenceOf(now), getProductCatalog()]);
  const next = await firstFreeNumber(sequence, await lastPolicyNumberSequence(sequence), isPolicyNumberTaken, MAX_PASSED_OVER);
  if (!next) throw noFreeNumber(sequence);
  const line = product.lines.find((candidate) => candidate.default) ?? product.lines[0];
  return { next_policy_number: next.policyNumber, effective_dates: line.effectiveDates.map((entry) => ({ ...entry })) };
}

// ---------------------------------------------------------------- create_policy

/** The caller as the policy rules see it; an agent with several agencies has its default agency read. */
async function creatorOf(principal: Principal, asAgent: boolean): Promise<PolicyCreator> {
  // Holding the Agent role makes the caller an agent whatever grant it calls with.
  const isAgent = principal.heldRoleIds.includes(AGENT_ROLE_ID);
  const creator: PolicyCreator = { contactId: principal.contactId, isAgent, asAgent, agencyIds: principal.agencyIds };
  const agencies = principal.agencyIds.filter((id) => id !== principal.contactId);
  if (isAgent && agencies.length > 1) creator.defaultAgency = (await getContact(principal.contactId))?.defaultAgency ?? null;
  return creator;
}

/** The draft under a number, with the contacts' links to it: what the store writes. */
function bundleFor(draft: PolicyDraft, policyNumber: string): NewPolicyBundle {
  const linkedAt = clock.now().toISOString();
  const link = { policyId: draft.policyId, policyNumber, revisionId: draft.revisionId };
  const records = policyRecordsFor(draft, policyNumber);
  return {
    ...records,
    parts: [...draft.risks, ...draft.subLines, ...draft.items],
    contactLinks: contactRoles(draft.contacts).map(({ contactId, roleId }) => policyLinkOf(contactId, { ...link, roleId }, linkedAt)),
    // policy.quoted for integrators (shared/events), in the policy's create transaction.
    handedWrites: [
      eventOf({
        type: 'policy.quoted', policyId: draft.policyId, policyNumber, agencyId: records.policy.agencyId, transactionId: draft.revisionId, occurredAt: linkedAt,
        data: { term_id: records.term.id, effective_date: records.term.effectiveDate, expiration_date: records.term.expirationDate },
      }),
    ],
  };
}

/** The named insureds' names for the search index: as the bundle brings them, else read from the contacts. */
async function namedInsuredNamesOf(bundle: NewPolicyBundle): Promise<string[]> {
  const ids = bundle.policy.contacts.namedInsuredIds;
  if (bundle.namedInsuredNames) return bundle.namedInsuredNames;
  if (ids.length === 0) return [];
  const names = await getContactSummaries(ids);
  return ids.map((id) => names.get(id)?.name).filter((name): name is string => !!name);
}

/**
 * The next number of the sequence. Once a system number was found taken (typed by hand),
 * each number allocated is checked first and passed over while taken.
 */
async function allocateSystemNumber(sequence: NumberSequence, passOverTaken: boolean): Promise<string> {
  for (let passed = 0; passed < MAX_PASSED_OVER; passed += 1) {
    const policyNumber = formatPolicyNumber(sequence.prefix, sequence.year, await allocatePolicyNumberSequence(sequence));
    if (!passOverTaken || !(await isPolicyNumberTaken(policyNumber))) return policyNumber;
  }
  throw noFreeNumber(sequence);
}

/** Writes the draft under the given number, or under the next free system number; answers the number. */
async function storeNumbered(draft: PolicyDraft, sequence: NumberSequence, prepare?: PreparePolicy): Promise<string> {
  const manualNumber = draft.input.policy_number;
  if (manualNumber && (await isPolicyNumberTaken(manualNumber))) throw new PolicyNumberTakenError(manualNumber);
  for (let attempt = 1; ; attempt += 1) {
    const policyNumber = manualNumber ?? (await allocateSystemNumber(sequence, attempt > 1));
    try {
      const bundle = bundleFor(draft, policyNumber);
      const prepared = prepare ? await prepare(bundle) : bundle;
      await storePolicy(prepared, { namedInsuredNames: await namedInsuredNamesOf(prepared), policyTypeName: draft.policyTypeName });
      return policyNumber;
    } catch (error) {
      // The uniqueness item refused a system number typed by hand meanwhile: take the next free one.
      if (error instanceof PolicyNumberTakenError && !manualNumber && attempt < MAX_CREATE_ATTEMPTS) continue;
      throw error;
    }
  }
}

/**
 * create_policy. A number given is used as given; without one, the next free system number
 * is allocated, whatever `manual_policy_number` says. Everything is checked before a number
 * is allocated, so a refused call takes none.
 */
/**
 * Completes the records of a new policy before they are written in its one transaction
 * (a quote adds its rated structure). It writes nothing itself: it runs once on the records
 * under a placeholder number before any number is allocated, so that whatever it refuses
 * uses none up, and again under each number tried.
 */
export type PreparePolicy = (bundle: NewPolicyBundle) => Promise<NewPolicyBundle>;

/**
 * The draft as the state of its primary property sells the line, as a quote is built: drafted
 * once to learn the property's state, and again with the state's charges (Florida's
 * surcharges) when its filing has any.
 */
function draftForState(product: ProductCatalog, draft: (catalog: ProductCatalog) => PolicyDraft): PolicyDraft {
  const first = draft(product);
  const primary = first.risks.find((risk) => risk.primary) ?? first.risks[0];
  if (!primary?.address_state) return first;
  const stateProduct = productForFiling(product, resolveFiling(product, primary.address_state));
  return stateProduct === product ? first : draft(stateProduct);
}

export async function createPolicy(principal: Principal, input: CreatePolicyInput, external?: ExternalQuoteParts, now = clock.now(), prepare?: PreparePolicy) {
  const { draft, policyNumber } = await storeNewPolicy(principal, input, external, now, prepare);
  const { revision } = policyRecordsFor(draft, policyNumber);
  const names = await getContactSummaries(draft.contactIds);
  return {
    policy_id: draft.policyId,
    revision_id: draft.revisionId,
    policy_term_id: draft.termId,
    policy_number: policyNumber,
    revision_data: revisionDetailsToWire(
      { header: revision, risks: draft.risks, subLines: draft.subLines, items: draft.items, mortgagees: [] },
      { policyTypeName: draft.policyTypeName, names },
    ),
    policy_contacts: policyContactsToWire(draft.contacts, names),
  };
}

/**
 * Stores a new policy (numbered, with everything its bundle holds) and answers its draft and
 * number, without the create_policy answer: a quote answers its own (rated in `prepare`), so it
 * does not read the new contacts' names back after the commit.
 */
export async function storeNewPolicy(principal: Principal, input: CreatePolicyInput, external?: ExternalQuoteParts, now = clock.now(), prepare?: PreparePolicy) {
  const [product, sequence, creator] = await Promise.all([getProductCatalog(), sequenceOf(now), creatorOf(principal, input.as_agent)]);
  const draft = draftForState(product, (catalog) => draftPolicy(catalog, input, creator, external, now, { newId: randomUUID, lookupZip }));
  const unnumbered = bundleFor(draft, input.policy_number ?? formatPolicyNumber(sequence.prefix, sequence.year, 0));
  // The completion runs once before a number is taken (a quote rates and checks there): what it refuses takes none.
  assertNewPolicyFits(prepare ? await prepare(unnumbered) : unnumbered);
  const policyNumber = await storeNumbered(draft, sequence, prepare);
  return { draft, policyNumber };
}

// ---------------------------------------------------------------- a rewrite to a new account

/**
 * The number of the policy a rewrite to a new account makes: the one given, refused when taken,
 * or the next free system number (taken now: a rewrite is opened once everything else was checked,
 * and numbers are never given back). The new policy's uniqueness item guards it again at issue.
 */
export async function numberForRewrite(given: string | true, now = clock.now()): Promise<{ policyNumber: string; manual: boolean }> {
  if (given !== true) {
    if (await isPolicyNumberTaken(given)) throw new BusinessRuleError(`new_policy_number: policy number ${given} already exists`, { exists: true });
    return { policyNumber: given, manual: true };
  }
  return { policyNumber: await allocateSystemNumber(await sequenceOf(now), true), manual: false };
}

/** The named insureds' names, in order, as the search index shows them. */
export async function namedInsuredNamesFor(contactIds: readonly string[]): Promise<string[]> {
  if (contactIds.length === 0) return [];
  const names = await getContactSummaries([...contactIds]);
  return contactIds.map((id) => names.get(id)?.name).filter((name): name is string => !!name);
}
