/**
 * The contacts holding a role, from that role's name-sorted listing (gsi2, never a scan): whom
 * another area may give the role's work (the claims area's adjusters). A terminated contact is
 * left out, as is one whose listing is stale (the role since taken away).
 */
import type { ContactSummary } from './summary-store.js';
import { getContacts, listingSlice } from './store.js';

/** Up to `limit` holders of `roleId`, in name order. */
export async function contactsHoldingRole(roleId: string, limit = 1000): Promise<ContactSummary[]> {
  const rows = await listingSlice({ roleId }, 0, limit);
  const profiles = await getContacts(rows.map((row) => row.contactId));
  return rows.flatMap((row) => {
    const contact = profiles.get(row.contactId);
    if (!contact || contact.terminated || !contact.roleIds.includes(roleId)) return [];
    return [{ id: contact.id, name: contact.name, type: contact.type, roleIds: contact.roleIds, agencyIds: contact.agencyIds }];
  });
}
