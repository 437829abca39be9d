/**
 * Who is calling, and what they may do: resolved once per request by the authenticator
 * the operation factory is given. The platform defines the shape and the permission check;
 * which credentials are valid, and what a caller holds, is the auth area's business.
 */
import type { PresentedCredentials } from './credentials.js';

export type CredentialKind = 'api_key' | 'bearer' | 'session';

export interface Principal {
  contactId: string;
  credential: CredentialKind;
  /** Roles whose permissions apply to this call (a bearer grant may narrow them to one). */
  roleIds: string[];
  /** Every role the contact holds, whether or not selected for this grant. */
  heldRoleIds: string[];
  permissions: ReadonlySet<string>;
  /** Groups (agencies) whose records the caller may reach when its scope is `agency`. */
  agencyIds: string[];
  /** The widest reach of the effective roles: every record, its agencies' records, or its own. */
  scope: 'all' | 'agency' | 'own';
  isAdministrator: boolean;
  /** The OAuth client whose grant this call uses (bearer tokens only). */
  grantId?: string;
  /** The role bound to that grant by select_my_role, while the contact still holds it. */
  selectedRoleId?: string;
  /** The API key id used (api_key credentials only). */
  apiKeyId?: string;
}

/** Turns the credentials a request presents into its caller; undefined when none is valid. */
export interface Authenticator {
  authenticate(credentials: PresentedCredentials): Promise<Principal | undefined>;
}

/** Permissions look like `area:action`; `*` grants everything and `area:*` a whole area. */
export function hasPermission(principal: Pick<Principal, 'permissions'>, permission: string): boolean {
  const granted = principal.permissions;
  if (granted.has('*') || granted.has(permission)) return true;
  const area = permission.split(':')[0];
  return granted.has(`${area}:*`);
}

/**
 * Whether the caller may reach a record owned by `agencyId` and naming `contactIds`.
 * Outside its reach, a record answers as if it did not exist.
 */
export function reaches(principal: Principal, record: { agencyId?: string | null; contactIds?: readonly string[] }): boolean {
  if (principal.scope === 'all') return true;
  if (record.contactIds?.includes(principal.contactId)) return true;
  if (principal.scope === 'agency') return !!record.agencyId && principal.agencyIds.includes(record.agencyId);
  return false;
}
