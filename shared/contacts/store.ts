/**
 * The contacts store: the only code that knows the contact records' keys. A contact
 * and everything it owns (addresses, phones, emails, roles, index items, listing
 * counters) change together in one transaction, guarded by the profile's version.
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../platform/clients.js';
import { config } from '../platform/config.js';
import { batchGetAll, batchWriteAll, isConditionalCheckFailure, queryAll, queryPages } from '../platform/dynamo.js';
import { RecordChangedError, runTransaction, TRANSACTION_ITEM_LIMIT, TransactionTooLargeError, withoutStorageKeys, type TransactionOptions, type TransactionWrite } from '../platform/transactions.js';
import { BusinessRuleError, ConcurrentChangeError } from '../platform/errors.js';
import {
  agencyNumberKey,
  ALL_SCOPE,
  ANY_ROLE,
  agencyScope,
  contactKey,
  contactPolicyLinkKey,
  contactPolicyLinksQuery,
  contactRoleKey,
  contactRolesQuery,
  contactsMigrationKey,
  listingCounterKey,
  listingQuery,
  loginNameKey,
  nameWordQuery,
  nameWordRoleQuery,
} from './keys.js';
import { accessProfileOf, type ContactAccessProfile } from './access-store.js';
import { listingPartitions, planIndexChange, type TableItem } from './index-store.js';
import type { ContactRecord, PolicyLink, RoleAspects } from './model.js';
import { clock } from '../platform/clock.js';

/** The profile as bootstrap and other areas create it; kept for their callers. */
export interface ContactProfile {
  id: string;
  name: string;
  type: 'individual' | 'organization';
  roleIds: string[];
  agencyIds: string[];
  createdAt: string;
  version: number;
  [attribute: string]: unknown;
}

const table = () => config.tableName();

const stripKeys = <T>(item: Record<string, unknown>): T => withoutStorageKeys<T>(item);

// ---------------------------------------------------------------- transactions

/** The one transaction runner, with the contact's own words for a change too large to make at once. */
const transact = (items: TransactionWrite[], onConditionFailed?: TransactionOptions['onConditionFailed']) =>
  runTransaction(items, {
    label: 'The contact',
    tooLarge: (count) =>
      new TransactionTooLargeError(
        count,
        `This change would write ${count} records at once (at most ${TRANSACTION_ITEM_LIMIT}): give fewer roles or agencies, or a shorter name`,
      ),
    ...(onConditionFailed ? { onConditionFailed } : {}),
  });

const put = (Item: TableItem, condition?: string, values?: Record<string, unknown>): TransactionWrite => ({
  Put: {
    TableName: table(),
    Item,
    ...(condition ? { ConditionExpression: condition } : {}),
    ...(values ? { ExpressionAttributeValues: values } : {}),
  },
});

const counterUpdates = (counters: Array<{ key: { pk: string; sk: string }; delta: number }>): TransactionWrite[] =>
  counters.map(({ key, delta }) => ({
    Update: {
      TableName: table(),
      Key: key,
      UpdateExpression: 'SET entity = :entity ADD contacts :delta',
      ExpressionAttributeValues: { ':entity': 'ContactListingCounter', ':delta': delta },
    },
  }));

// ---------------------------------------------------------------- creating

/** A new contact: its profile, carrying its addresses, phones and e-mails (their one record). */
export interface NewContactRecords {
  contact: ContactRecord;
}

function creationItems({ contact }: NewContactRecords): TransactionWrite[] {
  const index = planIndexChange(undefined, contact);
  const absent = 'attribute_not_exists(pk)';
  const now = contact.createdAt;
  return [
    // The profile's own copy of the addresses, phones and e-mails is their one record: what every reader takes, and what a change replaces.
    put({ ...contactKey(contact.id), entity: 'Contact', ...contact }, absent),
    ...contact.roleIds.map((roleId) => put({ ...contactRoleKey(contact.id, roleId), entity: 'ContactRole', contactId: contact.id, roleId, addedAt: now, aspects: {} })),
    ...index.puts.map((item) => put(item)),
    ...counterUpdates(index.counters),
  ];
}

/**
 * The writes that create several contacts inside another area's transaction (a quote's
 * named insureds land in the policy's create, so that a refused policy leaves no contact
 * behind). A transaction may touch an item only once: the listing counters the contacts
 * share are added up into one update each.
 */
export function newContactsOf(contacts: readonly NewContactRecords[]): TransactionWrite[] {
  const writes: TransactionWrite[] = [];
  const counters = new Map<string, { key: { pk: string; sk: string }; delta: number }>();
  for (const records of contacts) {
    const index = planIndexChange(undefined, records.contact);
    for (const item of creationItems(records)) if (!item.Update) writes.push(item);
    for (const counter of index.counters) {
      const id = `${counter.key.pk}\u0000${counter.key.sk}`;
      const seen = counters.get(id);
      if (seen) seen.delta += counter.delta;
      else counters.set(id, { ...counter });
    }
  }
  return [...writes, ...counterUpdates([...counters.values()])];
}

/** Creates a contact with its addresses, phones, emails, roles and index items, all or nothing. */
export async function createContact(records: NewContactRecords): Promise<void> {
  try {
    await transact(creationItems(records));
  } catch (error) {
    if (error instanceof RecordChangedError) throw new BusinessRuleError('A contact with this id already exists');
    throw error;
  }
}

/**
 * The partitions (IAM `dynamodb:LeadingKeys`) that creating this profile writes, by action: the
 * contact's own partition by Put, the listing counters it joins by Update. A deploy-time role
 * that creates a known contact is scoped to exactly these.
 */
export function contactCreationPartitions(profile: ContactProfile): { put: string[]; update: string[] } {
  return {
    put: [contactKey(profile.id).pk],
    update: listingPartitions(profile).map(({ roleKey, scopeKey }) => listingCounterKey(roleKey, scopeKey).pk),
  };
}

/** Creates the contact's profile record unless one with that id exists; answers whether it created it. */
export async function createContactProfileIfAbsent(profile: ContactProfile): Promise<boolean> {
  try {
    await transact(creationItems({ contact: { ...profile } as ContactRecord }));
    return true;
  } catch (error) {
    if (error instanceof RecordChangedError) return false;
    throw error;
  }
}

/**
 * Bulk import for seeding (benchmark, large tests): BatchWrite of every record, then
 * one counter update per listing partition. Not for request paths: no conditions.
 */
export async function importContacts(contacts: NewContactRecords[]): Promise<void> {
  const items: TableItem[] = [];
  const counters = new Map<string, { key: { pk: string; sk: string }; delta: number }>();
  for (const records of contacts) {
    for (const item of creationItems(records)) {
      if (item.Put) items.push(item.Put.Item as TableItem);
      if (item.Update) {
        const key = item.Update.Key as { pk: string; sk: string };
        const id = `${key.pk}|${key.sk}`;
        const delta = item.Update.ExpressionAttributeValues?.[':delta'] as number;
        counters.set(id, { key, delta: (counters.get(id)?.delta ?? 0) + delta });
      }
    }
  }
  await batchWriteAll(items.map((Item) => ({ PutRequest: { Item } })), { concurrency: 8 });
  for (const counter of counters.values()) await transact(counterUpdates([counter]));
}

// ---------------------------------------------------------------- reading

export async function getContact(contactId: string): Promise<ContactRecord | undefined> {
  const result = await documentClient().send(new GetCommand({ TableName: table(), Key: contactKey(contactId) }));
  return result.Item ? stripKeys<ContactRecord>(result.Item) : undefined;
}

/** Profiles by id, 100 per BatchGet; ids that do not exist are simply absent from the map. */
export async function getContacts(contactIds: readonly string[]): Promise<Map<string, ContactRecord>> {
  const items = await batchGetAll(contactIds.map(contactKey), { concurrency: 4 });
  return new Map(items.map((item) => [item.id as string, stripKeys<ContactRecord>(item)]));
}

/** The aspects of every role the contact holds, by role id. */
export async function getRoleAspects(contactId: string): Promise<Map<string, RoleAspects>> {
  const items = await queryAll(contactRolesQuery(contactId));
  return new Map(items.map((item) => [item.roleId as string, (item.aspects as RoleAspects | undefined) ?? {}]));
}

// ---------------------------------------------------------------- changing

export interface ContactChange {
  before: ContactRecord;
  after: ContactRecord;
  /** The role whose aspects are written (added to the contact when it did not hold it). */
  roleId: string;
  aspects: RoleAspects;
  login?: { username: string; previousUsername?: string; passwordHash?: string };
  /** The Agency role's number changed: the lookup item of the new one is claimed, the old one's released. */
  agencyNumber?: { before: string | undefined; after: string | undefined };
  /**
   * Writes of copies of what authentication needs of the contact (its credentials' records,
   * kept by the auth area), asked only when the change alters it, committed in this change's
   * transaction so that a termination or a changed role holds from the next call on.
   */
  accessCopies?: (after: ContactAccessProfile) => Promise<TransactionWrite[]>;
}

/** Whether a change alters what authentication reads of the contact. */
function accessChanged(before: ContactAccessProfile, after: ContactAccessProfile): boolean {
  const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((id) => b.includes(id));
  return before.terminated !== after.terminated || before.agencyInactive !== after.agencyInactive || !sameSet(before.roleIds, after.roleIds) || !sameSet(before.agencyIds, after.agencyIds);
}

export class AgencyNumberTakenError extends BusinessRuleError {
  constructor(agencyNumber: string) {
    super(`agencyNumber: ${agencyNumber.slice(0, 40)} is already the number of another agency`);
    this.name = 'AgencyNumberTakenError';
  }
}

/** The agency a number belongs to (storeRoles' `agencyNumber`), if any. */
export async function agencyIdByNumber(agencyNumber: string): Promise<string | undefined> {
  if (!agencyNumber.trim()) return undefined;
  const result = await documentClient().send(new GetCommand({ TableName: table(), Key: agencyNumberKey(agencyNumber), ConsistentRead: true }));
  return result.Item?.contactId as string | undefined;
}

export class LoginNameTakenError extends BusinessRuleError {
  constructor(username: string) {
    super(`loginInformation.roleLoginUsername: ${username} is already taken`);
    this.name = 'LoginNameTakenError';
  }
}

/**
 * Writes a changed contact: the profile (only if still at the version read), the role's
 * aspects, the index items and counters that changed, and the login name and password.
 */
export async function saveContactChange(change: ContactChange): Promise<void> {
  const { before, after } = change;
  const now = clock.now().toISOString();
  const next: ContactRecord = { ...after, version: before.version + 1, updatedAt: now };
  const index = planIndexChange(before, next);
  const items: TransactionWrite[] = [
    put({ ...contactKey(before.id), entity: 'Contact', ...next }, 'version = :version', { ':version': before.version }),
    put({ ...contactRoleKey(before.id, change.roleId), entity: 'ContactRole', contactId: before.id, roleId: change.roleId, aspects: change.aspects, updatedAt: now }),
    ...index.puts.map((item) => put(item)),
    ...index.deletes.map((Key): TransactionWrite => ({ Delete: { TableName: table(), Key } })),
    ...counterUpdates(index.counters),
  ];
  const access = accessProfileOf(next as unknown as Record<string, unknown>, before.id);
  if (change.accessCopies && accessChanged(accessProfileOf(before as unknown as Record<string, unknown>, before.id), access)) items.push(...(await change.accessCopies(access)));
  let numberIndex = -1;
  const numbers = change.agencyNumber;
  if (numbers && numbers.before?.trim().toUpperCase() !== numbers.after?.trim().toUpperCase()) {
    if (numbers.after?.trim()) {
      numberIndex = items.length;
      items.push({
        Put: {
          TableName: table(),
          Item: { ...agencyNumberKey(numbers.after), entity: 'AgencyNumber', contactId: before.id, agencyNumber: numbers.after.trim() },
          ConditionExpression: 'attribute_not_exists(pk) OR contactId = :contactId',
          ExpressionAttributeValues: { ':contactId': before.id },
        },
      });
    }
    if (numbers.before?.trim()) {
      items.push({ Delete: { TableName: table(), Key: agencyNumberKey(numbers.before), ConditionExpression: 'attribute_not_exists(pk) OR contactId = :contactId', ExpressionAttributeValues: { ':contactId': before.id } } });
    }
  }
  let loginIndex = -1;
  if (change.login) {
    const { username, previousUsername, passwordHash } = change.login;
    loginIndex = items.length;
    if (passwordHash || previousUsername || !before.login) {
      // The caller carries the stored hash over on a rename without a new password.
      if (!passwordHash) throw new BusinessRuleError('loginInformation.roleLoginPassword: is required to set up a login');
      items.push({
        Put: {
          TableName: table(),
          Item: { ...loginNameKey(username), entity: 'ContactLogin', contactId: before.id, username, passwordHash, updatedAt: now },
          ConditionExpression: 'attribute_not_exists(pk) OR contactId = :contactId',
          ExpressionAttributeValues: { ':contactId': before.id },
        },
      });
    }
    if (previousUsername) {
      items.push({
        Delete: {
          TableName: table(),
          Key: loginNameKey(previousUsername),
          ConditionExpression: 'attribute_not_exists(pk) OR contactId = :contactId',
          ExpressionAttributeValues: { ':contactId': before.id },
        },
      });
    }
  }
  await transact(items, (failure) => {
    if (failure.index === numberIndex && numberIndex > 0 && numbers?.after) return new AgencyNumberTakenError(numbers.after);
    return failure.index === loginIndex && failure.index > 0 && change.login ? new LoginNameTakenError(change.login.username) : new ConcurrentChangeError('The contact');
  });
}

/** The stored password hash of a login name (for the sign-in flow); never leaves the server. */
export async function getLoginCredential(username: string): Promise<{ contactId: string; passwordHash: string } | undefined> {
  const result = await documentClient().send(new GetCommand({ TableName: table(), Key: loginNameKey(username), ConsistentRead: true }));
  if (!result.Item) return undefined;
  return { contactId: result.Item.contactId as string, passwordHash: result.Item.passwordHash as string };
}

// ---------------------------------------------------------------- policy links

/**
 * Records that a contact is on a policy (or application) in a role. Written by the
 * policies area when it attaches a contact; writing it again updates it.
 */
/**
 * A contact linked to a policy in a role, as a write for the linking area's own transaction (a
 * policy and its links are created together or not at all): the caller gives the facts, the
 * contacts area builds its record.
 */
export function policyLinkOf(contactId: string, link: PolicyLink, linkedAt = clock.now().toISOString()): TransactionWrite {
  return {
    Put: {
      TableName: table(),
      Item: { ...contactPolicyLinkKey(contactId, link.policyId), entity: 'ContactPolicyLink', contactId, ...link, linkedAt },
    },
  };
}

/** A contact's link to a policy removed, as a write of the transaction that retires the policy (a requoted quote). */
export function policyLinkRemoval(contactId: string, policyId: string): TransactionWrite {
  return { Delete: { TableName: table(), Key: contactPolicyLinkKey(contactId, policyId) } };
}

export async function linkContactToPolicy(contactId: string, link: PolicyLink): Promise<void> {
  await documentClient().send(
    new PutCommand({
      TableName: table(),
      Item: { ...contactPolicyLinkKey(contactId, link.policyId), entity: 'ContactPolicyLink', contactId, ...link, linkedAt: clock.now().toISOString() },
    }),
  );
}

export async function listPolicyLinks(contactId: string): Promise<PolicyLink[]> {
  const items = await queryAll(contactPolicyLinksQuery(contactId));
  return items.map((item) => {
    const { contactId: _contactId, ...link } = stripKeys<PolicyLink & { contactId: string }>(item);
    return link;
  });
}

// ---------------------------------------------------------------- searching and listing

export interface NameWordHit {
  contactId: string;
  type: string;
  sortName: string;
  words: string[];
  agencyIds: string[];
}

/**
 * Contacts of a role having a name word that begins with `prefix`, one Query page at a
 * time; `accept` filters each hit (type, reach, other words) and reading stops at `limit`.
 */
export async function findByNameWord(
  roleId: string | undefined,
  prefix: string,
  accept: (hit: NameWordHit) => boolean,
  limit = Number.POSITIVE_INFINITY,
): Promise<NameWordHit[]> {
  if (roleId === undefined) return (await readNameWordHits(nameWordQuery(ANY_ROLE, prefix), 'gsi1sk', accept, limit)).map(({ hit }) => hit);
  // A role's words are on gsi3 (a contact's first role) or gsi1 (a further role, or stored
  // before they shared the ANY item): each yields its first `limit` in word order, so the
  // first `limit` of both together are the first `limit` overall.
  const [roleIndex, separate] = await Promise.all([
    readNameWordHits(nameWordRoleQuery(roleId, prefix), 'gsi3sk', accept, limit),
    readNameWordHits(nameWordQuery(roleId, prefix), 'gsi1sk', accept, limit),
  ]);
  const hits = new Map<string, NameWordHit>();
  for (const { hit } of [...roleIndex, ...separate].sort((a, b) => (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0))) {
    if (!hits.has(hit.contactId)) hits.set(hit.contactId, hit);
    if (hits.size >= limit) break;
  }
  return [...hits.values()];
}

async function readNameWordHits(
  query: ReturnType<typeof nameWordQuery>,
  sortAttribute: 'gsi1sk' | 'gsi3sk',
  accept: (hit: NameWordHit) => boolean,
  limit: number,
): Promise<Array<{ hit: NameWordHit; sortKey: string }>> {
  const hits = new Map<string, { hit: NameWordHit; sortKey: string }>();
  const pages = queryPages<NameWordHit & Record<typeof sortAttribute, string>>({
    ...query,
    ProjectionExpression: `contactId, #type, sortName, words, agencyIds, ${sortAttribute}`,
    ExpressionAttributeNames: { '#type': 'type' },
  });
  for await (const page of pages) {
    for (const { [sortAttribute]: sortKey, ...hit } of page.items) {
      if (!hits.has(hit.contactId) && accept(hit)) hits.set(hit.contactId, { hit, sortKey });
      if (hits.size >= limit) return [...hits.values()];
    }
  }
  return [...hits.values()];
}

/** A listing of contacts: those of one role (every role without one) within one agency's reach (everyone's without one). */
export interface ContactListing {
  roleId?: string;
  agencyId?: string;
}

const listingPartition = (listing: ContactListing) => ({ roleKey: listing.roleId ?? ANY_ROLE, scopeKey: listing.agencyId === undefined ? ALL_SCOPE : agencyScope(listing.agencyId) });

/** How many contacts a listing holds (one GetItem, whatever its size). */
export async function countListing(listing: ContactListing): Promise<number> {
  const { roleKey, scopeKey } = listingPartition(listing);
  const result = await documentClient().send(new GetCommand({ TableName: table(), Key: listingCounterKey(roleKey, scopeKey) }));
  return Math.max(0, (result.Item?.contacts as number | undefined) ?? 0);
}

/**
 * Contact ids at positions [offset, offset + limit) of a listing partition, in name order.
 * Earlier positions are skipped with COUNT queries: DynamoDB has no offset, so they are
 * still read (and paid for), but they are tiny and never leave the server.
 */
export async function listingSlice(listing: ContactListing, offset: number, limit: number): Promise<Array<{ contactId: string; sortKey: string }>> {
  const { roleKey, scopeKey } = listingPartition(listing);
  let startKey: Record<string, unknown> | undefined;
  if (offset > 0) {
    for await (const page of queryPages({ ...listingQuery(roleKey, scopeKey), Select: 'COUNT' }, { maxItems: offset })) {
      startKey = page.lastEvaluatedKey;
    }
    if (!startKey) return [];
  }
  const rows: Array<{ contactId: string; sortKey: string }> = [];
  const pages = queryPages({ ...listingQuery(roleKey, scopeKey), ProjectionExpression: 'contactId, gsi2sk', Limit: 10_000 }, { startKey, maxItems: limit });
  for await (const page of pages) {
    for (const item of page.items) rows.push({ contactId: item.contactId as string, sortKey: item.gsi2sk as string });
  }
  return rows.slice(0, limit);
}

/** The records of a plain new contact (no addresses), for bulk imports and seeding. */
export function plainContactRecords(contact: Pick<ContactRecord, 'id' | 'name' | 'type' | 'roleIds' | 'agencyIds'> & Partial<ContactRecord>): NewContactRecords {
  return {
    contact: { createdAt: clock.now().toISOString(), version: 1, ...contact },
  };
}

// ---------------------------------------------------------------- migrations

/** Every contact's profile, a page at a time, from the listing of all contacts: for migrations, never a request path. */
export async function* allContactProfiles(pageSize = 100): AsyncGenerator<ContactRecord[], void> {
  const pages = queryPages<{ contactId: string }>({ ...listingQuery(ANY_ROLE, ALL_SCOPE), ProjectionExpression: 'contactId', Limit: pageSize });
  for await (const page of pages) {
    const profiles = await getContacts(page.items.map((item) => item.contactId));
    yield [...profiles.values()];
  }
}

/** Where a stored value sits: on the profile, or on the record of one role the contact holds. */
export type StoredValuePlace = { contactId: string; roleId?: string; path: readonly string[] };

/**
 * Replaces one stored value if it still is `expected`; answers whether it did (a concurrent
 * write got there first otherwise, and that write is the one that counts).
 */
export async function replaceStoredValue(place: StoredValuePlace, expected: string, replacement: string): Promise<boolean> {
  const names = Object.fromEntries(place.path.map((segment, index) => [`#p${index}`, segment]));
  const path = place.path.map((_, index) => `#p${index}`).join('.');
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: table(),
        Key: place.roleId ? contactRoleKey(place.contactId, place.roleId) : contactKey(place.contactId),
        UpdateExpression: `SET ${path} = :replacement`,
        ConditionExpression: `${path} = :expected`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ':expected': expected, ':replacement': replacement },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionalCheckFailure(error)) return false;
    throw error;
  }
}

export async function contactsMigrationDone(name: string): Promise<boolean> {
  const result = await documentClient().send(new GetCommand({ TableName: table(), Key: contactsMigrationKey(name), ConsistentRead: true }));
  return !!result.Item;
}

export async function markContactsMigrationDone(name: string, outcome: Record<string, unknown>): Promise<void> {
  await documentClient().send(
    new PutCommand({ TableName: table(), Item: { ...contactsMigrationKey(name), entity: 'ContactsMigration', name, finishedAt: clock.now().toISOString(), ...outcome } }),
  );
}
