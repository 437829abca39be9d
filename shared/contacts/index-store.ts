/**
 * The search index items of a contact, derived from its name, type, roles and agencies.
 * A change of roles or agencies is planned as a difference between the items before and
 * after, so that a transaction writes only what changed and the listing counters move
 * by exactly the partitions gained or lost.
 */
import { agencyScope, ALL_SCOPE, ANY_ROLE, listingCounterKey, listingItemKey, nameWordItemKey } from './keys.js';
import { indexedWords, sortName } from './names.js';
import type { ContactType } from './model.js';

export interface IndexedContact {
  id: string;
  name: string;
  type: ContactType;
  roleIds: readonly string[];
  agencyIds: readonly string[];
}

export type TableItem = { pk: string; sk: string; [attribute: string]: unknown };

export interface IndexPlan {
  puts: TableItem[];
  deletes: Array<{ pk: string; sk: string }>;
  /** Counter key → +1 or −1. */
  counters: Array<{ key: { pk: string; sk: string }; delta: number }>;
}

const roleKeys = (contact: IndexedContact) => [ANY_ROLE, ...new Set(contact.roleIds)];
const scopeKeys = (contact: IndexedContact) => [ALL_SCOPE, ...new Set(contact.agencyIds)].map((id, index) => (index === 0 ? id : agencyScope(id)));

export function listingPartitions(contact: IndexedContact): Array<{ roleKey: string; scopeKey: string }> {
  return roleKeys(contact).flatMap((roleKey) => scopeKeys(contact).map((scopeKey) => ({ roleKey, scopeKey })));
}

export function indexItems(contact: IndexedContact): TableItem[] {
  const words = indexedWords(contact.name);
  const sorted = sortName(contact.name);
  const items: TableItem[] = [];
  for (const roleKey of roleKeys(contact)) {
    for (const word of words) {
      items.push({
        ...nameWordItemKey(contact.id, roleKey, word),
        entity: 'ContactNameWord',
        contactId: contact.id,
        type: contact.type,
        sortName: sorted,
        words,
        agencyIds: [...contact.agencyIds],
      });
    }
  }
  for (const { roleKey, scopeKey } of listingPartitions(contact)) {
    items.push({ ...listingItemKey(contact.id, roleKey, scopeKey, sorted), entity: 'ContactListing', contactId: contact.id });
  }
  return items;
}

const keyOf = (item: { pk: string; sk: string }) => `${item.pk}|${item.sk}`;

/** What to write so that the index of `before` (absent for a new contact) becomes that of `after`. */
export function planIndexChange(before: IndexedContact | undefined, after: IndexedContact): IndexPlan {
  const old = new Map((before ? indexItems(before) : []).map((item) => [keyOf(item), item]));
  const next = indexItems(after);
  const nextKeys = new Set(next.map(keyOf));
  const puts = next.filter((item) => {
    const previous = old.get(keyOf(item));
    return !previous || JSON.stringify(previous) !== JSON.stringify(item);
  });
  const deletes = [...old.values()].filter((item) => !nextKeys.has(keyOf(item))).map(({ pk, sk }) => ({ pk, sk }));

  const partitionId = (p: { roleKey: string; scopeKey: string }) => `${p.roleKey}|${p.scopeKey}`;
  const oldPartitions = new Set((before ? listingPartitions(before) : []).map(partitionId));
  const newPartitions = listingPartitions(after);
  const newIds = new Set(newPartitions.map(partitionId));
  const counters: IndexPlan['counters'] = [];
  for (const partition of newPartitions) {
    if (!oldPartitions.has(partitionId(partition))) counters.push({ key: listingCounterKey(partition.roleKey, partition.scopeKey), delta: 1 });
  }
  for (const partition of before ? listingPartitions(before) : []) {
    if (!newIds.has(partitionId(partition))) counters.push({ key: listingCounterKey(partition.roleKey, partition.scopeKey), delta: -1 });
  }
  return { puts, deletes, counters };
}
