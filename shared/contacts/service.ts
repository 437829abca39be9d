/**
 * The contacts operations (spec 4.1): what the entry files in functions/v1/contacts call.
 * Every read and write checks the caller's reach: a contact outside it answers as absent.
 */
import { randomUUID } from 'node:crypto';
import { type Role, listRoles } from '../catalog/index.js';
import { BusinessRuleError, NotFoundError } from '../platform/errors.js';
import { hashPassword } from '../platform/passwords.js';
import { reaches, type Principal } from '../platform/principal.js';
import { planStoreRoles, renderAspectData, type LoginChange } from './aspects.js';
import { normalizeContactContent } from './content.js';
import type { ContactAddress, ContactRecord } from './model.js';
import { matchesSearch, mostSelectiveWord, nameWords, sortName } from './names.js';
import {
  DETAIL_IDENTIFIERS,
  detailsContext,
  PERSONAL_INFORMATION_IDENTIFIERS,
  personalInformationContext,
  revealFields,
  sealAspects,
  sealFields,
  seesIdentifiersInFull,
} from './personal-identifiers.js';
import { AGENCY_ROLE_ID, findRole, mayGrantRole, roleAboveCaller, VENDOR_ROLE_ID } from './roles.js';
import type { StoreRolesInput } from './role-aspects-schema.js';
import type { StoreNewContactInput } from './schemas.js';
import { isTerminated, standingChangeRefusals, standingChanges } from './standing.js';
import {
  countListing,
  createContact,
  findByNameWord,
  getContact,
  getContacts,
  getLoginCredential,
  getRoleAspects,
  listingSlice,
  listPolicyLinks,
  saveContactChange,
  type ContactChange,
  type NameWordHit,
} from './store.js';
import { clock } from '../platform/clock.js';

/** A lookup is for picking a contact by name: it answers at most this many. */
export const LOOKUP_LIMIT = 100;

/** Whether the caller reaches a contact: its own record, or one of a shared agency. */
export function reachesContact(principal: Principal, contact: { id: string; agencyIds: readonly string[] }): boolean {
  if (reaches(principal, { contactIds: [contact.id] })) return true;
  return contact.agencyIds.some((agencyId) => reaches(principal, { agencyId, contactIds: [contact.id] }));
}

async function reachableContact(principal: Principal, contactId: string): Promise<ContactRecord | undefined> {
  const contact = await getContact(contactId);
  return contact && reachesContact(principal, contact) ? contact : undefined;
}

/** Agency contacts among `ids` that exist and that the caller reaches. */
async function existingAgencies(principal: Principal, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const found = await getContacts(ids);
  return new Set([...found.values()].filter((contact) => contact.roleIds.includes(AGENCY_ROLE_ID) && reachesContact(principal, contact)).map((contact) => contact.id));
}

// ---------------------------------------------------------------- storeNewContact

export async function storeNewContact(input: StoreNewContactInput, principal: Principal): Promise<{ id: string; address_ids: string[] }> {
  const normalized = normalizeContactContent(input.content, randomUUID);
  const messages = normalized.ok ? [] : [...normalized.messages];

  const roles = await listRoles();
  const granted: Role[] = [];
  const references = [
    ...(input.role ? [{ field: 'role', reference: input.role }] : []),
    ...(normalized.ok ? normalized.value.roleRefs : (input.content.roles ?? [])).map((reference, index) => ({ field: `content.roles.${index}`, reference })),
  ];
  for (const { field, reference } of references) {
    const role = findRole(roles, reference);
    if (!role) messages.push(`${field}: no role named ${JSON.stringify(reference)}`);
    else if (!mayGrantRole(principal, role)) messages.push(`${field}: you may not give the ${role.name} role`);
    else if (!granted.includes(role)) granted.push(role);
  }
  if (input.content.isGod && !principal.isAdministrator) messages.push('content.isGod: only an Administrator may set it');

  const agencyId = input.content.agencyId ?? undefined;
  if (agencyId && !(await existingAgencies(principal, [agencyId])).has(agencyId)) messages.push(`content.agencyId: agency ${agencyId} was not found`);
  if (messages.length > 0 || !normalized.ok) throw new BusinessRuleError(messages);

  const content = normalized.value;
  const id = randomUUID();
  const roleIds = granted.map((role) => role.id);
  const agencyIds = new Set<string>();
  if (roleIds.includes(AGENCY_ROLE_ID)) agencyIds.add(id);
  if (agencyId) agencyIds.add(agencyId);
  else if (principal.scope === 'agency') {
    // An agent's new contact joins the agent's agency, or the agent could not see it.
    const own = await getContact(principal.contactId);
    const home = own?.defaultAgency && principal.agencyIds.includes(own.defaultAgency) ? own.defaultAgency : principal.agencyIds[0];
    if (home) agencyIds.add(home);
  }

  const contact: ContactRecord = {
    id,
    name: content.name,
    type: content.type,
    roleIds,
    agencyIds: [...agencyIds],
    createdAt: clock.now().toISOString(),
    createdBy: principal.contactId,
    version: 1,
    ...(agencyId && roleIds.some((roleId) => roleId !== AGENCY_ROLE_ID) ? { defaultAgency: agencyId } : {}),
    ...(content.agencyInceptionDate ? { agencyInceptionDate: content.agencyInceptionDate } : {}),
    ...(content.agencyTerminationDate ? { agencyTerminationDate: content.agencyTerminationDate } : {}),
    details: sealFields(content.details, DETAIL_IDENTIFIERS, detailsContext(id)),
    addresses: content.addresses,
    phoneNumbers: content.phoneNumbers,
    emailAddresses: content.emailAddresses,
  };
  await createContact({ contact });
  return { id, address_ids: content.addresses.map((address) => address.id) };
}

// ---------------------------------------------------------------- storeRoles

const textOf = (value: unknown): string | undefined => (typeof value === 'string' || typeof value === 'number' ? String(value) : undefined);

/** Applies a storeRoles call; refuses it whole, with every message, when anything is wrong. */
export async function storeRoles(input: StoreRolesInput, principal: Principal, options: Pick<ContactChange, 'accessCopies'> = {}): Promise<void> {
  const catalog = await listRoles();
  const role = findRole(catalog, input.roleId);
  if (!role) throw new BusinessRuleError([`roleId: no role with id ${input.roleId}`]);
  const contact = await changeableContact(principal, catalog, input.contactId);
  const holdsRole = contact.roleIds.includes(role.id);
  if (!holdsRole && contact.id === principal.contactId) throw new BusinessRuleError([`roleId: you may not give yourself the ${role.name} role`]);
  if (!holdsRole && !mayGrantRole(principal, role)) throw new BusinessRuleError([`roleId: you may not give the ${role.name} role`]);
  const withRole: ContactRecord = holdsRole ? contact : { ...contact, roleIds: [...contact.roleIds, role.id] };

  const named = [...(input.agencies?.toAdd ?? [])];
  const [agencies, aspectsByRole] = await Promise.all([existingAgencies(principal, named), getRoleAspects(contact.id)]);
  const aspects = aspectsByRole.get(role.id) ?? {};
  const plan = planStoreRoles(input, withRole, aspects, {
    existingAgencies: agencies,
    mayAttach: (agencyId) => reaches(principal, { agencyId }),
    isAgency: withRole.roleIds.includes(AGENCY_ROLE_ID),
    terminatedInOtherRoles: isTerminated([...aspectsByRole].filter(([roleId]) => roleId !== role.id).map(([, other]) => other)),
  });
  if (!plan.ok) throw new BusinessRuleError(plan.messages);
  const changes = standingChanges({ contact, aspects }, { contact: plan.contact, aspects: plan.aspects }, plan.login?.password !== undefined);
  const refusals = standingChangeRefusals(principal, withRole, changes);
  if (refusals.length > 0) throw new BusinessRuleError(refusals);

  const login = plan.login ? await storedLogin(plan.login) : undefined;
  // Identifiers still in clear from before sealing are sealed on this write too.
  const after = { ...plan.contact, details: sealFields(plan.contact.details, DETAIL_IDENTIFIERS, detailsContext(contact.id)) };
  // The Agency role's number is how a quote's agency_number finds the agency: its lookup item moves with it.
  const agencyNumber = role.id === AGENCY_ROLE_ID ? { before: textOf(aspects.agencyNumber), after: textOf(plan.aspects.agencyNumber) } : undefined;
  await saveContactChange({ before: contact, after, roleId: role.id, aspects: sealAspects(contact.id, plan.aspects), ...(login ? { login } : {}), ...(agencyNumber ? { agencyNumber } : {}), ...options });
}

/**
 * The contact a storeRoles call names, when the caller may change it: within its reach, and
 * (unless it is the caller itself) holding no role the caller could not give.
 */
async function changeableContact(principal: Principal, catalog: readonly Role[], contactId: string): Promise<ContactRecord> {
  const contact = await reachableContact(principal, contactId);
  if (!contact) throw new BusinessRuleError([`contactId: contact ${contactId} was not found`]);
  const above = contact.id === principal.contactId ? undefined : roleAboveCaller(principal, catalog, contact.roleIds);
  if (above) throw new BusinessRuleError([`contactId: you may not change a contact holding the ${above.name} role`]);
  return contact;
}

/** The login name record to write: a new password hashed, or the stored hash carried over a rename. */
async function storedLogin(change: LoginChange): Promise<ContactChange['login']> {
  let passwordHash = change.password ? await hashPassword(change.password) : undefined;
  if (!passwordHash && change.previousUsername) passwordHash = (await getLoginCredential(change.previousUsername))?.passwordHash;
  return { username: change.username, ...(change.previousUsername ? { previousUsername: change.previousUsername } : {}), ...(passwordHash ? { passwordHash } : {}) };
}

// ---------------------------------------------------------------- retrieveAspectData

export async function retrieveAspectData(
  input: { id: string; roleId: string; hasPermissions: boolean; all: boolean },
  principal: Principal,
): Promise<Record<string, unknown>> {
  if (principal.credential === 'api_key' && input.hasPermissions !== true) {
    throw new BusinessRuleError('hasPermissions: must be true when calling with an API key');
  }
  const catalog = await listRoles();
  const role = findRole(catalog, input.roleId);
  if (!role) throw new BusinessRuleError(`roleId: no role with id ${input.roleId}`);
  const contact = await reachableContact(principal, input.id);
  if (!contact) throw new NotFoundError(`Contact ${input.id}`);
  const above = contact.id === principal.contactId ? undefined : roleAboveCaller(principal, catalog, contact.roleIds);
  // A lookup shows such a contact's name and card; its aspect data is for those above it.
  if (above) throw new BusinessRuleError(`id: you may not read the aspect data of a contact holding the ${above.name} role`);
  const [aspectsByRole, links, agencies] = await Promise.all([getRoleAspects(contact.id), listPolicyLinks(contact.id), getContacts(contact.agencyIds)]);
  const data = renderAspectData({
    contact,
    roleId: role.id,
    aspectsByRole,
    all: input.all,
    links,
    agencyNames: new Map([...agencies.values()].map((agency) => [agency.id, agency.name])),
  });
  const personal = data.personalInformation as Record<string, unknown> | undefined;
  if (personal) {
    data.personalInformation = revealFields(personal, PERSONAL_INFORMATION_IDENTIFIERS, personalInformationContext(contact.id), seesIdentifiersInFull(principal));
  }
  return data;
}

// ---------------------------------------------------------------- lookupContactByName

export async function lookupContactByName(input: { name: string; role: string; role_type: string }, principal: Principal) {
  const role = findRole(await listRoles(), input.role);
  if (!role) throw new BusinessRuleError(`role: no role named ${JSON.stringify(input.role)}`);
  const words = nameWords(input.name);
  const prefix = mostSelectiveWord(words);
  if (!prefix) throw new BusinessRuleError('name: must contain a letter or a digit');
  const hits = await findByNameWord(
    role.id,
    prefix,
    (hit) => hit.type === input.role_type && matchesSearch(hit.words, words) && reachesHit(principal, hit),
    LOOKUP_LIMIT,
  );
  hits.sort(byName);
  const contacts = await getContacts(hits.map((hit) => hit.contactId));
  const companyIds = [...contacts.values()].map(companyOf).filter((id): id is string => !!id);
  const companies = await getContacts(companyIds);
  return hits
    .map((hit) => contacts.get(hit.contactId))
    .filter((contact): contact is ContactRecord => !!contact)
    .map((contact) => lookupElement(contact, companies));
}

const byName = (a: NameWordHit, b: NameWordHit) => (a.sortName < b.sortName ? -1 : a.sortName > b.sortName ? 1 : a.contactId < b.contactId ? -1 : 1);

function reachesHit(principal: Principal, hit: NameWordHit): boolean {
  return reachesContact(principal, { id: hit.contactId, agencyIds: hit.agencyIds ?? [] });
}

/** The agency a contact works for (its default, else its first other than itself). */
function companyOf(contact: ContactRecord): string | undefined {
  return contact.defaultAgency ?? contact.agencyIds.find((id) => id !== contact.id);
}

function lookupElement(contact: ContactRecord, companies: ReadonlyMap<string, ContactRecord>) {
  const companyId = companyOf(contact);
  const company = companyId ? companies.get(companyId) : undefined;
  return {
    id: contact.id,
    name: contact.name,
    extra: {
      agencyGroupNumber: contact.agencyGroupNumber ?? '',
      addresses: contact.addresses ?? [],
      emailAddresses: contact.emailAddresses ?? [],
      phoneNumbers: contact.phoneNumbers ?? [],
      company: company ? { id: company.id, name: company.name, type: company.type } : {},
      isWholeSaleModeAgency: false,
    },
  };
}

// ---------------------------------------------------------------- retrieveContactList

export interface ContactListPage {
  activePage: number;
  maxPages: number;
  maxRecords: number;
  records: ReturnType<typeof listRecord>[];
}

export async function retrieveContactList(
  input: { searchString: string; filter: string; currentPage: number; pageSize: number },
  principal: Principal,
): Promise<ContactListPage> {
  const roles = await listRoles();
  const everyone = ['', 'all', 'any', '*'].includes(input.filter.trim().toLowerCase());
  const role = everyone ? undefined : findRole(roles, input.filter);
  if (!everyone && !role) throw new BusinessRuleError(`filter: no role named ${JSON.stringify(input.filter)}`);
  const roleId = role?.id;
  const offset = (input.currentPage - 1) * input.pageSize;
  const words = nameWords(input.searchString);

  let total: number;
  let pageIds: string[];
  const prefix = mostSelectiveWord(words);
  if (prefix) {
    const hits = await findByNameWord(roleId, prefix, (hit) => matchesSearch(hit.words, words) && reachesHit(principal, hit));
    hits.sort(byName);
    total = hits.length;
    pageIds = hits.slice(offset, offset + input.pageSize).map((hit) => hit.contactId);
  } else if (principal.scope === 'all') {
    [total, pageIds] = await Promise.all([
      countListing({ roleId }),
      listingSlice({ roleId }, offset, input.pageSize).then((rows) => rows.map((row) => row.contactId)),
    ]);
  } else if (principal.scope === 'agency' && principal.agencyIds.length === 1) {
    const listing = { roleId, agencyId: principal.agencyIds[0] };
    [total, pageIds] = await Promise.all([
      countListing(listing),
      listingSlice(listing, offset, input.pageSize).then((rows) => rows.map((row) => row.contactId)),
    ]);
  } else {
    // Several agencies (or none): merge their partitions; the cost is that of the caller's own reach.
    const listings = principal.scope === 'agency' ? principal.agencyIds.map((agencyId) => ({ roleId, agencyId })) : [];
    const rows = (await Promise.all(listings.map((listing) => listingSlice(listing, 0, Number.POSITIVE_INFINITY)))).flat();
    const unique = new Map(rows.map((row) => [row.contactId, row.sortKey]));
    const own = await getContact(principal.contactId);
    if (own && (!role || own.roleIds.includes(role.id))) unique.set(own.id, `${sortName(own.name)}#${own.id}`);
    const ordered = [...unique.entries()].sort(([, a], [, b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([id]) => id);
    total = ordered.length;
    pageIds = ordered.slice(offset, offset + input.pageSize);
  }

  const contacts = await getContacts(pageIds);
  const roleNames = new Map(roles.map((r) => [r.id, r.name]));
  const records = pageIds
    .map((id) => contacts.get(id))
    .filter((contact): contact is ContactRecord => !!contact)
    .map((contact) => listRecord(contact, role?.name ?? roleNames.get(contact.roleIds[0]) ?? ''));
  return { activePage: input.currentPage, maxPages: Math.ceil(total / input.pageSize), maxRecords: total, records };
}

export function formatAddress(address: ContactAddress): string {
  const city = address.addressCity ?? address.addressCityOther ?? '';
  const state = address.addressState ?? address.addressStateCanada ?? address.addressStateOther ?? '';
  const line = [address.addressLine1, address.addressLine2, city].filter(Boolean).join(', ');
  return [line, [state, address.addressZip].filter(Boolean).join(' ')].filter(Boolean).join(', ');
}

function listRecord(contact: ContactRecord, roleName: string) {
  const addresses = contact.addresses ?? [];
  return {
    flag: contact.agencyInactive ? 'inactive' : 'active',
    type: contact.type,
    id: contact.id,
    details: {
      name: contact.name,
      raw_addresses: addresses,
      phone: contact.phoneNumbers?.[0]?.phone ?? '',
      role: roleName,
      is_approved_vendor: contact.roleIds.includes(VENDOR_ROLE_ID),
      address: addresses[0] ? formatAddress(addresses[0]) : '',
      email: contact.emailAddresses?.[0]?.email ?? '',
    },
  };
}
