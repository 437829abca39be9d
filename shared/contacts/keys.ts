/**
 * Key builders of the contacts area; see the Contacts section of docs/data-model.md.
 * Everything a contact owns lives in its own partition `CONTACT#<id>`; the search indexes
 * (name words on gsi1 for every contact and on gsi3 for a role, name-sorted listings on
 * gsi2) live on small items apart from the profile, so that a search or a page reads only
 * what it returns, whatever the table holds. One item carries up to one key of each index.
 */

export const CONTACT_PREFIX = 'CONTACT#';

export const contactKey = (contactId: string) => ({ pk: `${CONTACT_PREFIX}${contactId}`, sk: 'PROFILE' });


/** A role the contact holds, carrying that role's aspect data (storeRoles). */
export const contactRoleKey = (contactId: string, roleId: string) => ({ pk: `${CONTACT_PREFIX}${contactId}`, sk: `ROLE#${roleId}` });
export const contactRolesQuery = (contactId: string) => ({
  KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
  ExpressionAttributeValues: { ':pk': `${CONTACT_PREFIX}${contactId}`, ':prefix': 'ROLE#' },
});

/**
 * The relation of a contact to a policy (or application), written by the policies area,
 * read by retrieveAspectData for `policies` and `associatedInfo`.
 */
export const contactPolicyLinkKey = (contactId: string, policyId: string) => ({
  pk: `${CONTACT_PREFIX}${contactId}`,
  sk: `POLICYLINK#${policyId}`,
});
export const contactPolicyLinksQuery = (contactId: string) => ({
  KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
  ExpressionAttributeValues: { ':pk': `${CONTACT_PREFIX}${contactId}`, ':prefix': 'POLICYLINK#' },
});

/** A login name, unique across contacts (storeRoles loginInformation); holds the password hash. */
export const loginNameKey = (username: string) => ({ pk: `LOGIN#${username.trim().toLowerCase()}`, sk: 'LOGIN' });

/**
 * Index partitions are per role (`roleKey` is a role id, or ANY_ROLE for "every contact")
 * and, for listings, per reach (`scopeKey` is ALL_SCOPE or `AGENCY#<agencyId>`), so that
 * an agent pages through its own agencies' contacts without reading anyone else's.
 */
export const ANY_ROLE = 'ANY';
export const ALL_SCOPE = 'ALL';
export const agencyScope = (agencyId: string) => `AGENCY#${agencyId}`;

/** Sort keys are bounded: DynamoDB allows 1024 bytes; names longer than this sort by their start. */
const SORT_NAME_LIMIT = 200;

/** gsi1: one item per (role, distinct word of the name); prefix search is begins_with on the word. */
export const nameWordItemKey = (contactId: string, roleKey: string, word: string) => ({
  pk: `${CONTACT_PREFIX}${contactId}`,
  sk: `INDEX#WORD#${roleKey}#${word}`,
  gsi1pk: `CWORD#${roleKey}`,
  gsi1sk: `${word}#${contactId}`,
});
/**
 * gsi3: the same word for one role the contact holds, carried by its ANY item above, so
 * that a name word costs one item for "every contact" and the contact's first role. Items
 * written before this layout (and a second role's) index that role on gsi1 instead.
 */
export const nameWordRoleIndexKey = (contactId: string, roleId: string, word: string) => ({
  gsi3pk: `CWORD#${roleId}`,
  gsi3sk: `${word}#${contactId}`,
});
export const nameWordRoleQuery = (roleId: string, wordPrefix: string) => ({
  IndexName: 'gsi3',
  KeyConditionExpression: 'gsi3pk = :pk AND begins_with(gsi3sk, :prefix)',
  ExpressionAttributeValues: { ':pk': `CWORD#${roleId}`, ':prefix': wordPrefix },
});
export const nameWordQuery = (roleKey: string, wordPrefix: string) => ({
  IndexName: 'gsi1',
  KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
  ExpressionAttributeValues: { ':pk': `CWORD#${roleKey}`, ':prefix': wordPrefix },
});

/** gsi2: one item per (role, reach), sorted by the normalised name: the pages of retrieveContactList. */
export const listingItemKey = (contactId: string, roleKey: string, scopeKey: string, sortName: string) => ({
  pk: `${CONTACT_PREFIX}${contactId}`,
  sk: `INDEX#LIST#${roleKey}#${scopeKey}`,
  ...listingIndexKey(contactId, roleKey, scopeKey, sortName),
});
/** A listing entry's gsi2 keys alone: a name word item carries one, so that a listing costs no item of its own. */
export const listingIndexKey = (contactId: string, roleKey: string, scopeKey: string, sortName: string) => ({
  gsi2pk: `CLIST#${roleKey}#${scopeKey}`,
  gsi2sk: `${sortName.slice(0, SORT_NAME_LIMIT)}#${contactId}`,
});
export const listingQuery = (roleKey: string, scopeKey: string) => ({
  IndexName: 'gsi2',
  KeyConditionExpression: 'gsi2pk = :pk',
  ExpressionAttributeValues: { ':pk': `CLIST#${roleKey}#${scopeKey}` },
});

/** A finished one-time change of the contacts' stored records (a migration), so that it runs once. */
export const contactsMigrationKey = (name: string) => ({ pk: `CONTACTMIGRATION#${name}`, sk: 'DONE' });

/** How many contacts a listing partition holds, kept in step by the same transactions. */
export const listingCounterKey = (roleKey: string, scopeKey: string) => ({ pk: `CONTACTCOUNT#${roleKey}#${scopeKey}`, sk: 'COUNT' });

/**
 * An agency's number (storeRoles, the Agency role's `agencyNumber`), unique across agencies:
 * how a quote's `agency_number` finds its agency. Compared as given, trimmed, case-insensitively.
 */
export const agencyNumberKey = (agencyNumber: string) => ({ pk: `AGENCYNUMBER#${agencyNumber.trim().toUpperCase()}`, sk: 'AGENCYNUMBER' });
