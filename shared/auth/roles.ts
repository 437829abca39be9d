/**
 * Which roles, permissions and reach apply to a call: plain rules over the role
 * catalog and the roles a contact holds, shared by authentication and by the
 * retrieve_my_* / select_my_role operations so that both always agree.
 */
import type { Role } from '../catalog/index.js';
import { BusinessRuleError } from '../platform/errors.js';

/**
 * The roles whose permissions apply. An OAuth grant with a selected role acts with that
 * role alone; once the contact no longer holds it, the selection no longer counts and the
 * grant falls back to the held roles (never to a role the contact has lost).
 */
export function effectiveRoleIds(heldRoleIds: readonly string[], selectedRoleId?: string): string[] {
  if (selectedRoleId && heldRoleIds.includes(selectedRoleId)) return [selectedRoleId];
  return [...heldRoleIds];
}

/** The selection that is in force, if any (see effectiveRoleIds). */
export function selectionInForce(heldRoleIds: readonly string[], selectedRoleId?: string): string | undefined {
  return selectedRoleId && heldRoleIds.includes(selectedRoleId) ? selectedRoleId : undefined;
}

/** The union of the roles' permissions, sorted, each once. */
export function permissionsOf(catalog: readonly Role[], roleIds: readonly string[]): string[] {
  const permissions = new Set<string>();
  for (const role of catalog) {
    if (roleIds.includes(role.id)) role.permissions.forEach((permission) => permissions.add(permission));
  }
  return [...permissions].sort();
}

/** The widest reach among the roles: all records, the caller's agencies', or its own. */
export function widestScope(catalog: readonly Role[], roleIds: readonly string[]): Role['scope'] {
  let scope: Role['scope'] = 'own';
  for (const role of catalog) {
    if (!roleIds.includes(role.id)) continue;
    if (role.scope === 'all') return 'all';
    if (role.scope === 'agency') scope = 'agency';
  }
  return scope;
}

export interface AvailableRole {
  id: string;
  name: string;
  selected: boolean;
}

/** The catalog roles a contact holds, by name, marking the one selected for the grant. */
export function availableRoles(catalog: readonly Role[], heldRoleIds: readonly string[], selectedRoleId?: string): AvailableRole[] {
  const inForce = selectionInForce(heldRoleIds, selectedRoleId);
  return catalog
    .filter((role) => heldRoleIds.includes(role.id))
    .map((role) => ({ id: role.id, name: role.name, selected: role.id === inForce }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}

/** A grant may only be bound to a catalog role that the contact holds. */
export function assertRoleSelectable(catalog: readonly Role[], heldRoleIds: readonly string[], roleId: string): Role {
  const role = catalog.find((candidate) => candidate.id === roleId);
  if (!role || !heldRoleIds.includes(roleId)) {
    throw new BusinessRuleError(`role_id: ${roleId} is not one of your roles; choose one returned by retrieve_my_roles`);
  }
  return role;
}
