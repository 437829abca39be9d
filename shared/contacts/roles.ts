/**
 * Roles as the contacts area uses them: resolving a role named by a client, and who may
 * give a role to a contact (nobody may give more than they hold).
 */
import type { Role } from '../catalog/model.js';
import { hasPermission, type Principal } from '../platform/principal.js';

/** Fixed ids of the reference product (reference-product.md, "Contacts and access"). */
export const ADMINISTRATOR_ROLE_ID = '7be0803d-445c-4e35-8419-52b07cd4d537';
export const AGENCY_ROLE_ID = 'c3f1e47a-a32b-40bc-ab8d-3c8808ea6692';
export const AGENT_ROLE_ID = '3f99d5a0-ab2e-45e0-973b-0585ec61c3bc';
export const VENDOR_ROLE_ID = 'a0b415a3-fb1b-4f12-aa37-974480d19964';
export const NAMED_INSURED_ROLE_ID = '8626b373-c54d-498a-82bf-fd2d2f32b746';
export const ADDITIONAL_INTEREST_ROLE_ID = 'f01d0ac6-0da6-40db-8e6c-086a6debaef6';

/** A role by id, or by name ignoring case and surrounding spaces. */
export function findRole(roles: readonly Role[], reference: string): Role | undefined {
  const wanted = reference.trim().toLowerCase();
  return roles.find((role) => role.id.toLowerCase() === wanted) ?? roles.find((role) => role.name.toLowerCase() === wanted);
}

const SCOPE_RANK = { own: 0, agency: 1, all: 2 } as const;

/** Whether the caller may give `role` to a contact: its reach and permissions must not exceed the caller's. */
export function mayGrantRole(principal: Pick<Principal, 'isAdministrator' | 'scope' | 'permissions'>, role: Role): boolean {
  if (principal.isAdministrator) return true;
  if (SCOPE_RANK[role.scope] > SCOPE_RANK[principal.scope]) return false;
  return role.permissions.every((permission) => hasPermission(principal, permission));
}
