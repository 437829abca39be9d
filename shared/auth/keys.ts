/** Key builders of the auth area (API keys, OAuth clients, sessions); see docs/data-model.md. */

/** An API key's record, found by the digest of the key a caller presents. */
export const apiKeyKey = (keyDigest: string) => ({ pk: `APIKEY#${keyDigest}`, sk: 'APIKEY' });

/**
 * A pointer from an API key's public id to its digest. It lives on the table rather
 * than on an index so that revoking a key just created finds it (index reads lag).
 */
export const apiKeyIdKey = (keyId: string) => ({ pk: `APIKEYID#${keyId}`, sk: 'APIKEYID' });

/** gsi1: a contact's API keys, oldest first. */
export const apiKeysOfContactIndex = (contactId: string, createdAt: string, keyId: string) => ({
  gsi1pk: `CONTACT#${contactId}`,
  gsi1sk: `APIKEY#${createdAt}#${keyId}`,
});

export function apiKeysOfContactQuery(contactId: string) {
  return {
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
    ExpressionAttributeValues: { ':pk': `CONTACT#${contactId}`, ':prefix': 'APIKEY#' },
  };
}

export const oauthClientKey = (clientId: string) => ({ pk: `OAUTHCLIENT#${clientId}`, sk: 'OAUTHCLIENT' });

/** A browser session, found by the digest of the cookie's token. */
export const sessionKey = (tokenDigest: string) => ({ pk: `SESSION#${tokenDigest}`, sk: 'SESSION' });

/**
 * A contact's credentials, in a partition of their own: an entry per API key, session and
 * OAuth client that carries a copy of the contact's access (below), and a head whose
 * generation every new entry advances. A change of the contact's access reads the partition
 * (strongly: an index would lag behind a key just issued) and rewrites each copy in its own
 * transaction, guarded by the generation it read.
 */
const CREDENTIALS_PREFIX = 'CREDENTIALS#';
export const contactCredentialsHeadKey = (contactId: string) => ({ pk: `${CREDENTIALS_PREFIX}${contactId}`, sk: 'HEAD' });
export type CredentialKindStored = 'APIKEY' | 'SESSION' | 'OAUTHCLIENT';
export const contactCredentialKey = (contactId: string, kind: CredentialKindStored, id: string) => ({ pk: `${CREDENTIALS_PREFIX}${contactId}`, sk: `${kind}#${id}` });
export const contactCredentialsQuery = (contactId: string) => ({
  KeyConditionExpression: 'pk = :pk',
  ExpressionAttributeValues: { ':pk': `${CREDENTIALS_PREFIX}${contactId}` },
});
