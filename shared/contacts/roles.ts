/**
 * Roles as the contacts area uses them: resolving a role named by a client, and who may
 * give a role to a contact (reference-product.md, "Contacts and access" and "Standing").
 */
import type { Role } from '../catalog/index.js';
import { hasPermission, type Principal } from '../platform/principal.js';

/** Fixed ids of the reference product (reference-product.md, "Contacts and access"). */
export const ADMINISTRATOR_ROLE_ID = '7be0803d-445c-4e35-8419-52b07cd4d537';
export const UNDERWRITER_ROLE_ID = 'f572e03a-a70b-4671-a45c-bae3e4b9cc1b';
export const AGENCY_ROLE_ID = 'c3f1e47a-a32b-40bc-ab8d-3c8808ea6692';
export const AGENT_ROLE_ID = '3f99d5a0-ab2e-45e0-973b-0585ec61c3bc';
export const NAMED_INSURED_ROLE_ID = '8626b373-c54d-498a-82bf-fd2d2f32b746';
export const MORTGAGEE_ROLE_ID = '069ad0ce-bb95-41c0-baf9-b9d58afc92cb';
export const ADDITIONAL_INTEREST_ROLE_ID = 'f01d0ac6-0da6-40db-8e6c-086a6debaef6';
export const FINANCE_COMPANY_ROLE_ID = '2e8f4bf3-f306-40dd-bb0b-f7018c68bebc';
export const VENDOR_ROLE_ID = 'a0b415a3-fb1b-4f12-aa37-974480d19964';
export const CLAIMS_ADJUSTER_ROLE_ID = '5b0e6f3a-2d4c-4b8e-9a17-c3d5e7f90a21';
export const CLAIMS_MANAGER_ROLE_ID = '8e2d4f6a-1b3c-4d5e-8f70-a1b2c3d4e5f6';

/** The customer-side roles an Agent (or Agency) may give, to contacts of its agencies only. */
export const AGENT_GRANTABLE_ROLE_IDS: readonly string[] = [NAMED_INSURED_ROLE_ID, MORTGAGEE_ROLE_ID, ADDITIONAL_INTEREST_ROLE_ID, FINANCE_COMPANY_ROLE_ID];

/** A role by id, or by name ignoring case and surrounding spaces. */
export function findRole(roles: readonly Role[], reference: string): Role | undefined {
  const wanted = reference.trim().toLowerCase();
  return roles.find((role) => role.id.toLowerCase() === wanted) ?? roles.find((role) => role.name.toLowerCase() === wanted);
}

const SCOPE_RANK = { own: 0, agency: 1, all: 2 } as const;

type Grantor = Pick<Principal, 'isAdministrator' | 'scope' | 'permissions'>;

/**
 * Whether the caller may give `role` to a contact. An Administrator may give any; a caller
 * working for agencies only the customer-side roles; anyone else no role whose reach or
 * permissions exceed its own.
 */
export function mayGrantRole(principal: Grantor, role: Role): boolean {
  if (principal.isAdministrator) return true;
  if (principal.scope === 'agency') return AGENT_GRANTABLE_ROLE_IDS.includes(role.id);
  if (SCOPE_RANK[role.scope] > SCOPE_RANK[principal.scope]) return false;
  return role.permissions.every((permission) => hasPermission(principal, permission));
}

/**
 * The first role the contact holds that the caller could not give: such a contact is above
 * the caller, which may then neither change it nor read its aspect data. Unknown role ids
 * (not in the catalog) give nobody any reach and are ignored.
 */
export function roleAboveCaller(principal: Grantor, catalog: readonly Role[], heldRoleIds: readonly string[]): Role | undefined {
  return catalog.find((role) => heldRoleIds.includes(role.id) && !mayGrantRole(principal, role));
}

/** Agents and agencies: the contacts an Underwriter, besides an Administrator, may change the standing of. */
export function worksForAgencies(roleIds: readonly string[]): boolean {
  return roleIds.includes(AGENT_ROLE_ID) || roleIds.includes(AGENCY_ROLE_ID);
}
