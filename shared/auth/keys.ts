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
