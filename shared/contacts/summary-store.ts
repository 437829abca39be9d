/**
 * Names and types of contacts, for other areas that show who is on a record
 * (policy contacts, named insureds). One BatchGet per 100 contacts.
 */
import { batchGetAll } from '../platform/dynamo.js';
import { contactKey } from './keys.js';

export interface ContactSummary {
  id: string;
  name: string;
  type: 'individual' | 'organization';
  roleIds: string[];
  agencyIds: string[];
}

export async function getContactSummaries(contactIds: readonly string[]): Promise<Map<string, ContactSummary>> {
  const profiles = await batchGetAll<Partial<ContactSummary> & Pick<ContactSummary, 'id' | 'name' | 'type'>>(contactIds.map(contactKey), {
    projection: { expression: 'id, #name, #type, roleIds, agencyIds', names: { '#name': 'name', '#type': 'type' } },
  });
  return new Map(
    profiles.map((profile): [string, ContactSummary] => [
      profile.id,
      { id: profile.id, name: profile.name, type: profile.type, roleIds: profile.roleIds ?? [], agencyIds: profile.agencyIds ?? [] },
    ]),
  );
}
