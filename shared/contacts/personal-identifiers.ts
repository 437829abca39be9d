/**
 * Personal identifiers: SSNs, FEIN/tax ids and driver's licence numbers. They are sealed
 * at rest (shared/platform/sealing.ts, bound to the contact and the field), shown in full
 * only to Administrators and Underwriters, and masked to their last four characters for
 * everyone else (reference-product.md, "Standing"). Records written before sealing hold
 * them in clear: they are read either way, sealed on their next write, and sealed in bulk
 * by the bootstrap's migration step.
 */
import { seal, unseal } from '../platform/sealing.js';
import type { Principal } from '../platform/principal.js';
import type { RoleAspects } from './model.js';
import { UNDERWRITER_ROLE_ID } from './roles.js';

/** storeNewContact's identifiers, kept in the profile's `details`. */
export const DETAIL_IDENTIFIERS = ['ssn', 'feinTaxId'] as const;
/** storeRoles' identifiers, kept in a role's `personalInformation` aspect. */
export const PERSONAL_INFORMATION_IDENTIFIERS = ['ssn', 'driversLicense'] as const;

/** Marks a stored value as sealed, so that a clear value is never mistaken for one. */
const SEALED = 'sealed:';

export const isSealed = (stored: unknown): stored is string => typeof stored === 'string' && stored.startsWith(SEALED);

/** What a sealed value is bound to: the contact and the field, whichever role's aspect holds it. */
export const identifierContext = (contactId: string, field: string) => `contact:${contactId}:${field}`;

export function sealIdentifier(value: string, context: string): string {
  return isSealed(value) ? value : `${SEALED}${seal(value, context)}`;
}

/** The clear value of a stored identifier, sealed or not; undefined when it cannot be opened. */
export function openIdentifier(stored: string, context: string): string | undefined {
  return isSealed(stored) ? unseal(stored.slice(SEALED.length), context) : stored;
}

/** Everyone but Administrators and Underwriters sees identifiers masked. */
export function seesIdentifiersInFull(principal: Pick<Principal, 'isAdministrator' | 'roleIds'>): boolean {
  return principal.isAdministrator || principal.roleIds.includes(UNDERWRITER_ROLE_ID);
}

/**
 * All but the last four letters and digits masked, separators kept: `***-**-6789` for an
 * SSN in either form, `**-***6789` for a FEIN. A value of four or fewer is masked whole.
 */
export function maskIdentifier(field: string, clear: string): string {
  const significant = clear.replace(/[^0-9A-Za-z]/g, '');
  if (significant.length <= 4) return '*'.repeat(Math.max(significant.length, 4));
  const last4 = significant.slice(-4);
  if (field === 'ssn' && /^\d{9}$/.test(significant)) return `***-**-${last4}`;
  let hide = significant.length - 4;
  return clear.replace(/[0-9A-Za-z]/g, (character) => (hide-- > 0 ? '*' : character));
}

type Fields = Record<string, unknown>;

/** `fields` with the named identifiers sealed (already sealed ones left as they are). */
export function sealFields<T extends Fields | undefined>(fields: T, names: readonly string[], context: (field: string) => string): T {
  if (!fields) return fields;
  const sealed: Fields = { ...fields };
  for (const name of names) {
    const value = sealed[name];
    if (typeof value === 'string' && value !== '') sealed[name] = sealIdentifier(value, context(name));
  }
  return sealed as T;
}

/** `fields` with the named identifiers opened, in full or masked; null where one cannot be opened. */
export function revealFields<T extends Fields | undefined>(fields: T, names: readonly string[], context: (field: string) => string, full: boolean): T {
  if (!fields) return fields;
  const shown: Fields = { ...fields };
  for (const name of names) {
    const value = shown[name];
    if (typeof value !== 'string' || value === '') continue;
    const clear = openIdentifier(value, context(name));
    shown[name] = clear === undefined ? null : full ? clear : maskIdentifier(name, clear);
  }
  return shown as T;
}

export const detailsContext = (contactId: string) => (field: string) => identifierContext(contactId, `details.${field}`);
export const personalInformationContext = (contactId: string) => (field: string) => identifierContext(contactId, `personalInformation.${field}`);

/** A role's aspects as they are stored: its personalInformation identifiers sealed. */
export function sealAspects(contactId: string, aspects: RoleAspects): RoleAspects {
  const personal = aspects.personalInformation as Fields | undefined;
  if (!personal) return aspects;
  return { ...aspects, personalInformation: sealFields(personal, PERSONAL_INFORMATION_IDENTIFIERS, personalInformationContext(contactId)) };
}
