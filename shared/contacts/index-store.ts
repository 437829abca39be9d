/**
 * The search index items of a contact, derived from its name, type, roles and agencies.
 * A change of roles or agencies is planned as a difference between the items before and
 * after, so that the listing counters move by exactly the partitions gained or lost.
 */
import { agencyScope, ALL_SCOPE, ANY_ROLE, listingCounterKey, listingIndexKey, listingItemKey, nameWordItemKey, nameWordRoleIndexKey } from './keys.js';
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

/**
 * The index items of a contact. Each name word is one item: on gsi1 for every contact
 * (ANY) and on gsi3 for the contact's first role; a further role's words are items of their
 * own on gsi1. The listing entries ride on these items' gsi2, in order; only those left
 * over (a name without words, or more listings than word items) are items of their own.
 */
export function indexItems(contact: IndexedContact): TableItem[] {
  const words = indexedWords(contact.name);
  const sorted = sortName(contact.name);
  const [firstRole, ...otherRoles] = [...new Set(contact.roleIds)];
  const wordAttributes = () => ({ entity: 'ContactNameWord', contactId: contact.id, type: contact.type, sortName: sorted, words, agencyIds: [...contact.agencyIds] });
  const items: TableItem[] = [];
  for (const word of words) {
    items.push({
      ...nameWordItemKey(contact.id, ANY_ROLE, word),
      ...(firstRole === undefined ? {} : nameWordRoleIndexKey(contact.id, firstRole, word)),
      ...wordAttributes(),
    });
  }
  for (const roleId of otherRoles) {
    for (const word of words) items.push({ ...nameWordItemKey(contact.id, roleId, word), ...wordAttributes() });
  }
  const carriers = items.length;
  listingPartitions(contact).forEach(({ roleKey, scopeKey }, index) => {
    if (index < carriers) Object.assign(items[index], listingIndexKey(contact.id, roleKey, scopeKey, sorted));
    else items.push({ ...listingItemKey(contact.id, roleKey, scopeKey, sorted), entity: 'ContactListing', contactId: contact.id });
  });
  return items;
}

/**
 * The keys of the index items as written before words and listings shared items (one item
 * per role and word on gsi1, one per listing on gsi2): contacts stored then still have
 * them, and a change of such a contact must delete them.
 */
export function separateIndexItemKeys(contact: IndexedContact): Array<{ pk: string; sk: string }> {
  const words = indexedWords(contact.name);
  const sorted = sortName(contact.name);
  return [
    ...roleKeys(contact).flatMap((roleKey) => words.map((word) => nameWordItemKey(contact.id, roleKey, word))),
    ...listingPartitions(contact).map(({ roleKey, scopeKey }) => listingItemKey(contact.id, roleKey, scopeKey, sorted)),
  ].map(({ pk, sk }) => ({ pk, sk }));
}

const keyOf = (item: { pk: string; sk: string }) => `${item.pk}|${item.sk}`;

/**
 * What to write so that the index of `before` (absent for a new contact) becomes that of
 * `after`. The stored items of `before` may be of either layout, so a change rewrites every
 * item of `after` and deletes each key of `before`, in either layout, that `after` lacks; a
 * change that leaves the index as it was writes nothing, whichever layout it is stored in.
 */
export function planIndexChange(before: IndexedContact | undefined, after: IndexedContact): IndexPlan {
  const next = indexItems(after);
  let puts = next;
  let deletes: IndexPlan['deletes'] = [];
  if (before) {
    const previous = indexItems(before);
    if (JSON.stringify(previous) === JSON.stringify(next)) puts = [];
    else {
      const nextKeys = new Set(next.map(keyOf));
      const stale = new Map([...previous, ...separateIndexItemKeys(before)].map(({ pk, sk }) => [keyOf({ pk, sk }), { pk, sk }]));
      deletes = [...stale.entries()].filter(([key]) => !nextKeys.has(key)).map(([, key]) => key);
    }
  }

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
