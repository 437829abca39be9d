/**
 * A change of a contact's roles and standing (storeRoles), with the copies of its access that
 * its credentials carry rewritten in the change's own transaction: the auth area takes the
 * contacts' change and adds its writes, as the contacts area may not know the auth area's records.
 */
import { storeRoles, type StoreRolesInput } from '../contacts/index.js';
import type { Principal } from '../platform/principal.js';
import { accessCopyWrites } from './credentials-store.js';

export function storeRolesKeepingCredentials(input: StoreRolesInput, principal: Principal): Promise<void> {
  return storeRoles(input, principal, { accessCopies: (after) => accessCopyWrites(after) });
}
