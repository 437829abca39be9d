/**
 * Role aspect data: storeRoles' changes (validated as a whole, then merged) and the
 * aspect data retrieveAspectData answers (spec 2.3). Plain functions over plain data.
 *
 * Where each key lives: agencies, defaultAgency, agencyDates and loginInformation belong
 * to the contact (they decide its reach and its credential); every other key belongs to
 * the (contact, role) pair, on the role record.
 */
import type { StoreRolesInput } from './role-aspects-schema.js';
import type { ContactLogin, ContactRecord, PolicyLink, RoleAspects } from './model.js';
import { agencyDatesMessage, dateFromParts } from './dates.js';
import { withoutEmpty } from './content.js';
import { isTerminated } from './standing.js';

export const MIN_PASSWORD_LENGTH = 8;
const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** storeRoles keys holding one value of the same name: stored flat, as aspect data shows them. */
const SINGLE_VALUE_KEYS = ['agencyNumber', 'agencyGroupNumber', 'naicNumber', 'producerNumber', 'vendorNumber', 'creditScoreAccount'] as const;

/** storeRoles keys holding an object: sub-keys passed are merged into what is stored. */
const OBJECT_KEYS = [
  'agencyGroup',
  'commissionPayment',
  'commissionStructure',
  'defaultSurplusLinesProducer',
  'interestContent',
  'notices',
  'paymentsIssued',
  'personalInformation',
  'quotingRestriction',
  'sweepAccount',
  'termination',
] as const;

export interface AgencyFacts {
  /** The agency contacts named by the call that exist (and hold the Agency role). */
  existingAgencies: ReadonlySet<string>;
  /** Whether the caller may attach a contact to this agency. */
  mayAttach: (agencyId: string) => boolean;
  /** The contact holds (or is being given) the Agency role: it always belongs to itself. */
  isAgency: boolean;
  /** Another role of the contact already says it is terminated. */
  terminatedInOtherRoles: boolean;
}

export interface LoginChange {
  username: string;
  previousUsername?: string;
  /** Present only when a new password was given; hashed by the caller of this plan. */
  password?: string;
  login: ContactLogin;
}

export type StoreRolesPlan =
  | { ok: false; messages: string[] }
  | { ok: true; contact: ContactRecord; aspects: RoleAspects; login?: LoginChange };

/**
 * Validates the whole storeRoles call against the contact as stored and answers either
 * every message, or the contact and role aspects as they will be after the call.
 */
export function planStoreRoles(input: StoreRolesInput, contact: ContactRecord, aspects: RoleAspects, agencies: AgencyFacts): StoreRolesPlan {
  const messages: string[] = [];
  const next: ContactRecord = { ...contact };
  const nextAspects: RoleAspects = { ...aspects };

  if (input.agencyInactive !== undefined && input.agencyInactive !== null) {
    nextAspects.agencyInactive = input.agencyInactive;
    next.agencyInactive = input.agencyInactive;
  }
  if (input.e2ValDisallow !== undefined && input.e2ValDisallow !== null) nextAspects.disallowE2Val = input.e2ValDisallow;
  if (input.is1099Reportable !== undefined && input.is1099Reportable !== null) nextAspects.is1099Reportable = input.is1099Reportable;
  planAgencies(input, contact, next, agencies, messages);
  planAgencyDates(input, next, messages);
  planAspectKeys(input, next, nextAspects, messages);
  const login = planLogin(input, contact, next, messages);

  if (messages.length > 0) return { ok: false, messages };
  if (agencies.terminatedInOtherRoles || isTerminated([nextAspects])) next.terminated = true;
  else delete next.terminated;
  return { ok: true, contact: next, aspects: nextAspects, ...(login ? { login } : {}) };
}

/** Agencies are the contact's reach, so every id is checked against what exists and what the caller may touch. */
function planAgencies(input: StoreRolesInput, contact: ContactRecord, next: ContactRecord, agencies: AgencyFacts, messages: string[]): void {
  let agencyIds = [...contact.agencyIds];
  if (input.agencies) {
    const toAdd = input.agencies.toAdd ?? [];
    const toDelete = input.agencies.toDelete ?? [];
    for (const id of toAdd) {
      if (toDelete.includes(id)) messages.push(`agencies: agency ${id} is both in toAdd and in toDelete`);
      else if (!agencies.existingAgencies.has(id) || !agencies.mayAttach(id)) messages.push(`agencies.toAdd: agency ${id} was not found`);
    }
    for (const id of toDelete) {
      if (agencies.isAgency && id === contact.id) messages.push(`agencies.toDelete: an agency always belongs to itself (${id})`);
      else if (contact.agencyIds.includes(id) && !agencies.mayAttach(id)) messages.push(`agencies.toDelete: agency ${id} was not found`);
    }
    agencyIds = [...new Set([...agencyIds.filter((id) => !toDelete.includes(id)), ...toAdd])];
  }
  if (agencies.isAgency && !agencyIds.includes(contact.id)) agencyIds = [contact.id, ...agencyIds];
  next.agencyIds = agencyIds;

  if (input.defaultAgency !== undefined) {
    if (input.defaultAgency === null) delete next.defaultAgency;
    else if (!agencyIds.includes(input.defaultAgency)) {
      messages.push(`defaultAgency: ${input.defaultAgency} is not one of the contact's agencies`);
    } else next.defaultAgency = input.defaultAgency;
  } else if (next.defaultAgency && !agencyIds.includes(next.defaultAgency)) {
    // Leaving the default agency leaves no default rather than a dangling one.
    delete next.defaultAgency;
  }
}

function planAgencyDates(input: StoreRolesInput, next: ContactRecord, messages: string[]): void {
  if (!input.agencyDates) return;
  const d = input.agencyDates;
  const inception = dateFromParts('agencyDates.agencyInceptionDate', d.agencyInceptionDateYear, d.agencyInceptionDateMonth, d.agencyInceptionDateDay);
  const termination = dateFromParts('agencyDates.agencyTerminationDate', d.agencyTerminationDateYear, d.agencyTerminationDateMonth, d.agencyTerminationDateDay);
  for (const result of [inception, termination]) if (result.message) messages.push(result.message);
  if (inception.date) next.agencyInceptionDate = inception.date;
  if (termination.date) next.agencyTerminationDate = termination.date;
  const rule = agencyDatesMessage(next.agencyInceptionDate, next.agencyTerminationDate);
  if (rule) messages.push(rule);
}

/** The keys that belong to the (contact, role) pair: single values replaced, objects merged sub-key by sub-key. */
function planAspectKeys(input: StoreRolesInput, next: ContactRecord, nextAspects: RoleAspects, messages: string[]): void {
  for (const key of SINGLE_VALUE_KEYS) {
    const given = input[key] as Record<string, string | null | undefined> | null | undefined;
    if (!given || given[key] === undefined) continue;
    if (given[key] === null || given[key] === '') delete nextAspects[key];
    else nextAspects[key] = given[key];
    if (key === 'agencyGroupNumber') {
      if (nextAspects[key]) next.agencyGroupNumber = nextAspects[key] as string;
      else delete next.agencyGroupNumber;
    }
  }

  for (const key of OBJECT_KEYS) {
    const given = input[key];
    if (!given) continue;
    const merged = { ...((nextAspects[key] as Record<string, unknown> | undefined) ?? {}) };
    for (const [subKey, value] of Object.entries(given)) {
      if (value === undefined) continue;
      if (value === null) delete merged[subKey];
      else merged[subKey] = value;
    }
    nextAspects[key] = merged;
  }
  const byEmail = input.notices?.acceptNoticesByEmail;
  if (byEmail === true || byEmail === false) next.acceptNoticesByEmail = byEmail;
  else if (byEmail === null) delete next.acceptNoticesByEmail;
  const personal = nextAspects.personalInformation as Record<string, string | undefined> | undefined;
  if (personal && input.personalInformation) {
    for (const [field, prefix] of [['personalInformation.dob', 'dob'], ['personalInformation.dbs', 'dbs']] as const) {
      const parts = [personal[`${prefix}Year`], personal[`${prefix}Month`], personal[`${prefix}Day`]];
      if (parts.every((part) => part)) {
        const result = dateFromParts(field, parts[0], parts[1], parts[2]);
        if (result.message) messages.push(result.message);
      }
    }
  }
}

/** loginInformation: the login as it will read on the profile, and the name and password to store apart. */
function planLogin(input: StoreRolesInput, contact: ContactRecord, next: ContactRecord, messages: string[]): LoginChange | undefined {
  if (!input.loginInformation) return undefined;
  const given = input.loginInformation;
  const previous = contact.login;
  const username = given.roleLoginUsername ?? previous?.username;
  if (!username) messages.push('loginInformation.roleLoginUsername: is required to set up a login');
  else if (!/^[^\s]{3,128}$/.test(username)) messages.push('loginInformation.roleLoginUsername: must be 3 to 128 characters without spaces');
  const password = given.roleLoginPassword ?? undefined;
  const retype = given.roleLoginRetypePassword ?? undefined;
  if (password !== undefined || retype !== undefined) {
    if (password !== retype) messages.push('loginInformation.roleLoginRetypePassword: does not match roleLoginPassword');
    else if ((password ?? '').length < MIN_PASSWORD_LENGTH) {
      messages.push(`loginInformation.roleLoginPassword: must be at least ${MIN_PASSWORD_LENGTH} characters`);
    }
  } else if (!previous) {
    messages.push('loginInformation.roleLoginPassword: is required to set up a login');
  }
  if (given.roleLoginEmail && !EMAIL.test(given.roleLoginEmail)) {
    messages.push(`loginInformation.roleLoginEmail: ${JSON.stringify(given.roleLoginEmail)} is not an email address`);
  }
  if (!username) return undefined;
  const nextLogin = withoutEmpty({
    ...previous,
    username,
    confirmationEmail: given.roleLoginEmail ?? previous?.confirmationEmail,
    accessLevel: given.roleLoginAccessLevel ?? previous?.accessLevel,
    timezone: given.timezone ?? previous?.timezone,
    defaultState: given.defaultState ?? previous?.defaultState,
    oops: given.oops ?? previous?.oops,
  }) as ContactLogin;
  next.login = nextLogin;
  return {
    username,
    ...(previous && previous.username.toLowerCase() !== username.toLowerCase() ? { previousUsername: previous.username } : {}),
    ...(password ? { password } : {}),
    login: nextLogin,
  };
}

export interface AspectView {
  contact: ContactRecord;
  roleId: string;
  /** Aspects of every role the contact holds, by role id. */
  aspectsByRole: ReadonlyMap<string, RoleAspects>;
  all: boolean;
  links: readonly PolicyLink[];
  agencyNames: ReadonlyMap<string, string>;
}

/** The aspect data of spec 2.3. With `all`, the aspects of every role, the passed role's winning. */
export function renderAspectData(view: AspectView): Record<string, unknown> {
  const { contact } = view;
  const ordered = view.all ? [...view.aspectsByRole.keys()].filter((id) => id !== view.roleId).concat(view.roleId) : [view.roleId];
  const aspects: RoleAspects = Object.assign({}, ...ordered.map((id) => view.aspectsByRole.get(id) ?? {}));

  const data: Record<string, unknown> = {
    disallowE2Val: aspects.disallowE2Val === true,
    agencyInactive: aspects.agencyInactive === true,
    paycommissionto: contact.defaultAgency ?? contact.id,
    pagePermissionsExist: String(Boolean(contact.login?.accessLevel)),
    creditScoreAccountEnabled: typeof aspects.creditScoreAccount === 'string' && aspects.creditScoreAccount.length > 0,
    is1099Reportable: aspects.is1099Reportable === true,
  };
  for (const key of SINGLE_VALUE_KEYS) if (aspects[key]) data[key] = aspects[key];
  for (const key of OBJECT_KEYS) if (aspects[key]) data[key] = aspects[key];

  if (view.links.length > 0) {
    const strip = ({ pk: _pk, sk: _sk, entity: _entity, ...link }: PolicyLink) => link;
    const mine = view.links.filter((link) => view.all || link.roleId === view.roleId);
    data.policies = mine.map(strip);
    data.associatedInfo = view.links.filter((link) => !mine.includes(link)).map(strip);
  }
  if (contact.agencyInceptionDate || contact.agencyTerminationDate) {
    data.agencyDates = withoutEmpty({ agencyInceptionDate: contact.agencyInceptionDate, agencyTerminationDate: contact.agencyTerminationDate });
  }
  if (contact.agencyIds.length > 0) {
    data.agencies = contact.agencyIds.map((id) => ({ id, name: view.agencyNames.get(id) ?? null, isDefault: id === contact.defaultAgency }));
  }
  if (contact.defaultAgency) data.defaultAgency = contact.defaultAgency;
  if (contact.login) {
    data.loginInformation = withoutEmpty({
      username: contact.login.username,
      confirmationEmail: contact.login.confirmationEmail,
      permissionLevel: contact.login.accessLevel,
      timezone: contact.login.timezone,
      defaultState: contact.login.defaultState,
    });
  }
  return data;
}
