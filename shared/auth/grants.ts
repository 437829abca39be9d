/**
 * Roles bound to an OAuth grant (spec 4.4): what the caller of a bearer token may
 * choose from, what it may do now, and the choice itself. The grant is the OAuth
 * client of the client-credentials flow, so a selection lasts across its tokens.
 */
import { listRoles } from '../catalog/index.js';
import { AuthenticationError } from '../platform/errors.js';
import type { Principal } from '../platform/principal.js';
import { assertRoleSelectable, availableRoles, permissionsOf, type AvailableRole } from './roles.js';
import { selectRoleForGrant } from './store.js';

/**
 * These operations read and change the role of an OAuth grant, which only a bearer token
 * carries. An API key or a session has no grant to bind a role to, so it is not a valid
 * credential here: the caller is told to authenticate the OAuth way (401), not that the
 * request failed on its merits.
 */
export function grantOf(principal: Principal, operation: string): string {
  if (principal.credential !== 'bearer' || !principal.grantId) {
    throw new AuthenticationError(
      `${operation} needs an OAuth access token (Authorization: Bearer <token>): roles are bound to an OAuth grant, which an API key or a session does not have`,
    );
  }
  return principal.grantId;
}

export async function rolesOfGrant(principal: Principal): Promise<AvailableRole[]> {
  grantOf(principal, 'retrieve_my_roles');
  return availableRoles(await listRoles(), principal.heldRoleIds, principal.selectedRoleId);
}

export interface GrantPermissions {
  contactId: string;
  permissions: string[];
  /** The roles whose permissions apply: the selected one, or every held one when none is selected. */
  roles: Array<{ id: string; name: string }>;
  selectedRoleId: string | null;
}

export async function permissionsOfGrant(principal: Principal): Promise<GrantPermissions> {
  grantOf(principal, 'retrieve_my_permissions');
  const catalog = await listRoles();
  return {
    contactId: principal.contactId,
    permissions: permissionsOf(catalog, principal.roleIds),
    roles: availableRoles(catalog, principal.roleIds).map(({ id, name }) => ({ id, name })),
    selectedRoleId: principal.selectedRoleId ?? null,
  };
}

export async function selectRoleOfGrant(principal: Principal, roleId: string): Promise<{ id: string; name: string; permissions: string[] }> {
  const grantId = grantOf(principal, 'select_my_role');
  const catalog = await listRoles();
  const role = assertRoleSelectable(catalog, principal.heldRoleIds, roleId);
  await selectRoleForGrant(grantId, role.id);
  return { id: role.id, name: role.name, permissions: permissionsOf(catalog, [role.id]) };
}
