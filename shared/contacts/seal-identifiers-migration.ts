/**
 * The migration step that seals the personal identifiers written in clear before sealing
 * existed (profile details and every role's personalInformation). Run by the bootstrap;
 * it walks all contacts once, then records that it is done, so later starts cost one read.
 * Each value is replaced only if it is still the clear value read, so a concurrent write
 * (which seals on its own) is never overwritten.
 */
import {
  DETAIL_IDENTIFIERS,
  detailsContext,
  isSealed,
  PERSONAL_INFORMATION_IDENTIFIERS,
  personalInformationContext,
  sealIdentifier,
} from './personal-identifiers.js';
import { allContactProfiles, contactsMigrationDone, getRoleAspects, markContactsMigrationDone, replaceStoredValue, type StoredValuePlace } from './store.js';

export const SEAL_IDENTIFIERS_MIGRATION = 'seal-personal-identifiers-v1';

interface ClearValue {
  place: StoredValuePlace;
  clear: string;
  context: string;
}

function clearValues(fields: unknown, names: readonly string[], place: (field: string) => StoredValuePlace, context: (field: string) => string): ClearValue[] {
  if (!fields || typeof fields !== 'object') return [];
  return names
    .map((name) => ({ name, value: (fields as Record<string, unknown>)[name] }))
    .filter((entry): entry is { name: string; value: string } => typeof entry.value === 'string' && entry.value !== '' && !isSealed(entry.value))
    .map(({ name, value }) => ({ place: place(name), clear: value, context: context(name) }));
}

/** Seals what is still clear; answers how many values it sealed (0 once done). */
export async function sealStoredIdentifiers(): Promise<{ sealed: number }> {
  if (await contactsMigrationDone(SEAL_IDENTIFIERS_MIGRATION)) return { sealed: 0 };
  let sealed = 0;
  for await (const contacts of allContactProfiles()) {
    for (const contact of contacts) {
      const found = clearValues(contact.details, DETAIL_IDENTIFIERS, (field) => ({ contactId: contact.id, path: ['details', field] }), detailsContext(contact.id));
      for (const [roleId, aspects] of await getRoleAspects(contact.id)) {
        const place = (field: string) => ({ contactId: contact.id, roleId, path: ['aspects', 'personalInformation', field] });
        found.push(...clearValues(aspects.personalInformation, PERSONAL_INFORMATION_IDENTIFIERS, place, personalInformationContext(contact.id)));
      }
      for (const value of found) {
        if (await replaceStoredValue(value.place, value.clear, sealIdentifier(value.clear, value.context))) sealed += 1;
      }
    }
  }
  await markContactsMigrationDone(SEAL_IDENTIFIERS_MIGRATION, { sealed });
  return { sealed };
}
