/**
 * The auth area's stored records, declared once (shared/platform/records.ts): API keys (stored
 * only as the digest of the key, which keys them), OAuth clients with the role selected for their
 * grant, browser sessions (keyed by the digest of the cookie's token), and the partition listing
 * the credentials of a contact. Only the area's stores import this module.
 */
import { defineRecord } from '../platform/records.js';
import type { ApiKeyStored, ContactCredentialEntry, ContactCredentialsHead, SessionRecord } from './credentials-store.js';
import type { OAuthClientRecord } from './store.js';

/**
 * An API key, keyed by the sha256 `digest` of the key presented (the key itself is never stored): keyId, contactId, description,
 * createdAt, lastUsedAt, revokedAt (a revoked key stays), contactAccess (the copy of its contact's access, below); on gsi1 under its
 * contact in creation order.
 */
export const apiKeyRecord = /* @__PURE__ */ defineRecord<ApiKeyStored>({
  entity: 'ApiKey',
  key: { pk: 'APIKEY#${digest}', sk: 'APIKEY' },
  indexes: { gsi1: { pk: 'CONTACT#${contactId}', sk: 'APIKEY#${createdAt}#${keyId}' } },
});

/**
 * From an API key's public id to its digest (keyId, digest), written in the same transaction as the key. On the table rather than
 * an index so that revoking a key just created finds it (index reads lag).
 */
export const apiKeyIdRecord = /* @__PURE__ */ defineRecord<{ keyId: string; digest: string }>({
  entity: 'ApiKeyId',
  key: { pk: 'APIKEYID#${keyId}', sk: 'APIKEYID' },
});

/** The client-credentials grant (in AWS, clientId is the Cognito app client id): clientId, contactId, secretHash (scrypt), selectedRoleId, selectedAt, contactAccess. */
export const oauthClientRecord = /* @__PURE__ */ defineRecord<OAuthClientRecord>({
  entity: 'OAuthClient',
  key: { pk: 'OAUTHCLIENT#${clientId}', sk: 'OAUTHCLIENT' },
});

/**
 * A browser session, keyed by the sha256 `digest` of the cookie's token: contactId, apiKeyDigest, createdAt, `expiresAt` (epoch
 * seconds, TTL), contactAccess, revokedAt. A fixed 8-hour lifetime; refused once expired even before TTL deletes it, and once the
 * key that opened it is revoked (written onto the session when it carries a copy).
 */
export const sessionRecord = /* @__PURE__ */ defineRecord<SessionRecord>({
  entity: 'Session',
  key: { pk: 'SESSION#${digest}', sk: 'SESSION' },
});

/** The head of a contact's credentials: `generation`, advanced by every credential listed: a change of the contact's access that read the list checks it is unchanged. */
export const contactCredentialsHeadRecord = /* @__PURE__ */ defineRecord<ContactCredentialsHead>({
  entity: 'ContactCredentials',
  key: { pk: 'CREDENTIALS#${contactId}', sk: 'HEAD' },
});

/**
 * A credential of the contact carrying a copy of its access (`kind` APIKEY, SESSION or OAUTHCLIENT; `credentialId` the key's or
 * session's digest, the client's id): apiKeyDigest (a session's key), `expiresAt` (a session's, TTL). A change of the contact's
 * access finds them all with one strongly consistent Query (an index would lag behind a key just issued).
 */
export const contactCredentialRecord = /* @__PURE__ */ defineRecord<ContactCredentialEntry>({
  entity: 'ContactCredential',
  key: { pk: 'CREDENTIALS#${contactId}', sk: '${kind}#${credentialId}' },
});

/** Every declaration of the area, for docs/data-model.md. */
export const AUTH_RECORDS = [apiKeyRecord, apiKeyIdRecord, oauthClientRecord, sessionRecord, contactCredentialsHeadRecord, contactCredentialRecord] as const;
