/**
 * Where a contact has a kind of notice e-mailed (storeRoles `notices`): `chosenEmail`,
 * `commStatementChosenEmail` and `claimActivityChosenEmail` each name one of the contact's own
 * e-mail addresses by its id; `ccEmail` and `ccClaimEmail` are copied. Read by the areas that
 * send such notices (a claim's letters go to the agency's claimActivityChosenEmail).
 */
import type { ContactRecord, RoleAspects } from './model.js';
import { getContact, getRoleAspects } from './store.js';

export type ChosenEmail = 'chosenEmail' | 'commStatementChosenEmail' | 'claimActivityChosenEmail';

const CC_OF: Record<ChosenEmail, 'ccEmail' | 'ccClaimEmail'> = { chosenEmail: 'ccEmail', commStatementChosenEmail: 'ccEmail', claimActivityChosenEmail: 'ccClaimEmail' };

/** The address a role's notices choose, among the contact's own (pure). */
export function chosenNoticeEmail(contact: Pick<ContactRecord, 'emailAddresses'>, aspects: Iterable<RoleAspects>, chosen: ChosenEmail): { email: string; cc: string | null } | undefined {
  for (const roleAspects of aspects) {
    const notices = roleAspects.notices as Record<string, unknown> | undefined;
    const emailId = notices?.[chosen];
    if (typeof emailId !== 'string' || emailId === '') continue;
    const address = (contact.emailAddresses ?? []).find((candidate) => candidate.id === emailId);
    if (!address) continue;
    const cc = notices?.[CC_OF[chosen]];
    return { email: address.email, cc: typeof cc === 'string' && cc.trim() !== '' ? cc.trim() : null };
  }
  return undefined;
}

/** The contact's chosen address for a kind of notice, with its copy; undefined where it chose none (or chose an address it no longer has). */
export async function noticeEmailOf(contactId: string, chosen: ChosenEmail): Promise<{ name: string; email: string; cc: string | null } | undefined> {
  const [contact, aspects] = await Promise.all([getContact(contactId), getRoleAspects(contactId)]);
  if (!contact) return undefined;
  const found = chosenNoticeEmail(contact, aspects.values(), chosen);
  return found ? { name: contact.name, ...found } : undefined;
}
