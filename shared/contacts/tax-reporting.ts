/**
 * What a Form 1099 needs of the contacts paid: whether the contact is 1099 reportable (the
 * `is1099Reportable` aspect of any of its roles, set by storeRoles), its name and mailing address,
 * and its taxpayer id (the FEIN/tax id of storeNewContact, else the SSN: a sole proprietor's), opened
 * from its seal and shown in full only to those who see identifiers in full, masked to its last
 * four otherwise. The clear id is never logged: it leaves here only in the answer to such a caller.
 */
import type { Principal } from '../platform/principal.js';
import type { ContactRecord } from './model.js';
import { detailsContext, maskIdentifier, openIdentifier, seesIdentifiersInFull } from './personal-identifiers.js';
import { getContacts, getRoleAspects } from './store.js';

export interface TaxReportingContact {
  contactId: string;
  name: string;
  reportable: boolean;
  /** The taxpayer id as the caller may see it (full or masked); null when the contact has none that reads as one. */
  taxId: string | null;
  taxIdKind: 'fein' | 'ssn' | null;
  address: { line1: string; line2: string; city: string; state: string; zip: string } | null;
}

/** A US taxpayer identification number: nine digits, with or without the usual separators. */
const isTaxpayerId = (value: string) => /^\d{9}$/.test(value.replace(/[\s-]/g, ''));

function taxIdOf(contact: ContactRecord): { field: 'feinTaxId' | 'ssn'; clear: string } | undefined {
  for (const field of ['feinTaxId', 'ssn'] as const) {
    const stored = contact.details?.[field];
    if (typeof stored !== 'string' || stored === '') continue;
    const clear = openIdentifier(stored, detailsContext(contact.id)(field));
    if (clear && isTaxpayerId(clear)) return { field, clear };
  }
  return undefined;
}

/** The 1099 facts of the contacts named (those that exist): one batch read of the profiles, and each one's role aspects. */
export async function taxReportingContacts(principal: Pick<Principal, 'isAdministrator' | 'roleIds'>, contactIds: readonly string[]): Promise<Map<string, TaxReportingContact>> {
  const unique = [...new Set(contactIds)];
  const [profiles, aspects] = await Promise.all([getContacts(unique), Promise.all(unique.map(async (id) => [id, await getRoleAspects(id)] as const))]);
  const full = seesIdentifiersInFull(principal);
  const found = new Map<string, TaxReportingContact>();
  for (const [contactId, byRole] of aspects) {
    const contact = profiles.get(contactId);
    if (!contact) continue;
    const taxId = taxIdOf(contact);
    const address = contact.addresses?.[0];
    found.set(contactId, {
      contactId,
      name: contact.name,
      reportable: [...byRole.values()].some((roleAspects) => roleAspects.is1099Reportable === true),
      taxId: taxId ? (full ? taxId.clear : maskIdentifier(taxId.field, taxId.clear)) : null,
      taxIdKind: taxId ? (taxId.field === 'feinTaxId' ? 'fein' : 'ssn') : null,
      address: address ? { line1: address.addressLine1, line2: address.addressLine2 ?? '', city: address.addressCity ?? '', state: address.addressState ?? '', zip: address.addressZip ?? '' } : null,
    });
  }
  return found;
}
