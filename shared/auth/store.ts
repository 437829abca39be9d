/**
 * The auth store: API keys (stored only as digests), OAuth clients with the role
 * selected for their grant, and browser sessions. The only code that knows their keys.
 *
 * Reads that decide whether a credential is accepted are strongly consistent, so that a
 * revocation or a role selection holds from the very next call.
 */
import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { getContactAccessProfile, type ContactAccessProfile } from '../contacts/index.js';
import { documentClient } from '../platform/clients.js';
import { config } from '../platform/config.js';
import { getItem, isConditionalCheckFailure, putItem, queryAll } from '../platform/dynamo.js';
import { parseTemplate } from '../platform/records.js';
import { RecordChangedError, runTransaction } from '../platform/transactions.js';
import { accessCopyOf, credentialListing, credentialUnlisting, sessionRevocationWrites, type AccessCopy, type ApiKeyStored } from './credentials-store.js';
import { NotFoundError } from '../platform/errors.js';
import { hashPassword, verifyPassword } from '../platform/passwords.js';
import { apiKeyIdRecord, apiKeyRecord, contactCredentialsHeadRecord, oauthClientRecord, sessionRecord } from './records.js';
import { digestToken, newToken } from './secrets.js';
import { clock } from '../platform/clock.js';

/** An API key as its owner sees it: the stored record without the copy of its contact's access. */
export type ApiKeyRecord = Omit<ApiKeyStored, 'contactAccess'>;

export interface OAuthClientRecord {
  clientId: string;
  contactId: string;
  secretHash?: string;
  selectedRoleId?: string;
  /** The copy of the contact's access (credentials-store.ts); absent on a client bound before copies existed. */
  access?: AccessCopy;
}

/** The copy a credential's record carries, when it is of its own contact: records written before copies existed carry none. */
export function accessCopyIn(item: Record<string, unknown> | undefined, contactId: string): AccessCopy | undefined {
  const copy = item?.contactAccess as AccessCopy | undefined;
  return copy && copy.contactId === contactId && Array.isArray(copy.roleIds) ? copy : undefined;
}

const table = () => config.tableName();

function apiKeyRecordOf(item: Record<string, unknown>): ApiKeyRecord {
  return {
    keyId: item.keyId as string,
    contactId: item.contactId as string,
    description: (item.description as string | undefined) ?? '',
    createdAt: item.createdAt as string,
    ...(item.lastUsedAt ? { lastUsedAt: item.lastUsedAt as string } : {}),
    ...(item.revokedAt ? { revokedAt: item.revokedAt as string } : {}),
  };
}

/**
 * Stores a digest of `apiKey` for the contact, with the pointer from its id; a new
 * random key is made when none is given. The key itself is answered, never stored.
 */
/**
 * `known`: the contact's access as the caller knows it without reading (the bootstrap seed, which
 * just created the contact and may read nothing), or null for none (the key then carries no copy
 * and is judged by reading its contact); by default it is read.
 */
export async function createApiKey(contactId: string, description: string, apiKey = newToken('ias'), now = clock.now(), known?: ContactAccessProfile | null) {
  const keyId = randomUUID();
  const createdAt = now.toISOString();
  const digest = digestToken(apiKey);
  // The key carries a copy of its contact's access, listed among the contact's credentials so that
  // every later change of that access rewrites it; the contact changing meanwhile fails the issue, and it is tried again.
  for (let attempt = 1; ; attempt += 1) {
    const profile = known === undefined ? await getContactAccessProfile(contactId) : known;
    const copy = profile ? accessCopyOf(profile) : undefined;
    try {
      await runTransaction(
        [
          apiKeyRecord.create({ keyId, contactId, description, createdAt, ...(copy ? { contactAccess: copy } : {}) }, { digest }),
          apiKeyIdRecord.create({ keyId, digest }),
          ...(copy ? credentialListing(contactId, { kind: 'APIKEY', id: digest }, 'contact', copy) : []),
        ],
        { label: 'The API key' },
      );
      break;
    } catch (error) {
      // Only the contact's check (the last write) is worth another try; a key that exists stays refused.
      if (!(error instanceof RecordChangedError) || error.index === 0 || error.index === 1 || known !== undefined || attempt >= 3) throw error;
    }
  }
  return { keyId, apiKey, contactId, description, createdAt };
}

/** The partitions (IAM `dynamodb:LeadingKeys` patterns) of every API key record: a role that records a key's use is scoped to them. */
export function apiKeyPartitionPattern(): string {
  return `${partitionPrefix(apiKeyRecord)}*`;
}

/**
 * The partitions (IAM `dynamodb:LeadingKeys` patterns) that ensuring an API key and an OAuth
 * client writes, by action: the key and its id pointer by Put (neither known before the run),
 * the OAuth client record by Update.
 */
export function credentialSeedPartitions(clientId: string, contactId: string): { put: string[]; update: string[] } {
  const credentials = contactCredentialsHeadRecord.key({ contactId }).pk;
  return { put: [apiKeyPartitionPattern(), `${partitionPrefix(apiKeyIdRecord)}*`, credentials], update: [oauthClientRecord.key({ clientId }).pk, credentials] };
}

/** The text of a kind's partition key before its first placeholder: what every partition of the kind begins with. */
const partitionPrefix = (record: { declaration: { key: { pk: string } } }) => parseTemplate(record.declaration.key.pk)[0];

/** Makes sure `apiKey` works for the contact (bootstrap): creates it unless its digest exists. */
export async function ensureApiKey(contactId: string, apiKey: string, description: string, known?: ContactAccessProfile | null): Promise<void> {
  try {
    await createApiKey(contactId, description, apiKey, clock.now(), known);
  } catch (error) {
    // The key's own record exists (its condition is the first write's): nothing to do.
    if (!(error instanceof RecordChangedError) || error.index !== 0) throw error;
  }
}

export async function findActiveApiKey(apiKey: string): Promise<(ApiKeyRecord & { digest: string; access?: AccessCopy }) | undefined> {
  const digest = digestToken(apiKey);
  const item = await getItem(apiKeyRecord.key({ digest }));
  if (!item || item.revokedAt) return undefined;
  const record = apiKeyRecordOf(item);
  const access = accessCopyIn(item, record.contactId);
  return { ...record, digest, ...(access ? { access } : {}) };
}

/** Records the last use at most once a minute, so that reads do not each cost a write. */
export async function recordApiKeyUse(digest: string, now = clock.now()): Promise<void> {
  const staleBefore = new Date(now.getTime() - 60_000).toISOString();
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: table(),
        Key: apiKeyRecord.key({ digest }),
        UpdateExpression: 'SET lastUsedAt = :now',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(lastUsedAt) OR lastUsedAt < :stale)',
        ExpressionAttributeValues: { ':now': now.toISOString(), ':stale': staleBefore },
      }),
    );
  } catch (error) {
    if (!isConditionalCheckFailure(error)) throw error;
  }
}

/** A contact's keys, revoked ones included, oldest first; never the keys themselves. */
export async function listApiKeys(contactId: string): Promise<ApiKeyRecord[]> {
  return (await queryAll(apiKeyRecord.query({ contactId }, { index: 'gsi1' }))).map(apiKeyRecordOf);
}

/**
 * Revokes a key by its id and answers its record; undefined when no such key exists.
 * Revoking twice keeps the first revocation time.
 */
export async function revokeApiKey(keyId: string, now = clock.now()): Promise<ApiKeyRecord | undefined> {
  const pointer = await getItem(apiKeyIdRecord.key({ keyId }));
  const digest = pointer?.digest as string | undefined;
  if (!digest) return undefined;
  const key = await getItem(apiKeyRecord.key({ digest }));
  if (!key) return undefined;
  const revokedAt = (key.revokedAt as string | undefined) ?? now.toISOString();
  // The sessions the key opened carry their own copy of its standing: they are revoked with it, in
  // one transaction; a session opened meanwhile fails it, and it is tried again.
  for (let attempt = 1; ; attempt += 1) {
    try {
      await runTransaction(
        [
          {
            Update: {
              TableName: table(),
              Key: apiKeyRecord.key({ digest }),
              UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :now)',
              ConditionExpression: 'attribute_exists(pk)',
              ExpressionAttributeValues: { ':now': revokedAt },
            },
          },
          ...(await sessionRevocationWrites(key.contactId as string, digest, revokedAt, now.getTime())),
        ],
        { label: 'The API key' },
      );
      break;
    } catch (error) {
      if (!(error instanceof RecordChangedError) || attempt >= 3) throw error;
    }
  }
  return apiKeyRecordOf({ ...key, revokedAt });
}

/** Creates or updates the OAuth client acting for a contact; keeps its selected role. */
/** `known` as for createApiKey: given, nothing is read (nor is the client's entry under a contact it was bound to before removed). */
export async function ensureOAuthClient(clientId: string, contactId: string, clientSecret?: string, known?: ContactAccessProfile | null): Promise<void> {
  const secretHash = clientSecret === undefined ? undefined : await hashPassword(clientSecret);
  for (let attempt = 1; ; attempt += 1) {
    const [profile, bound] = known === undefined ? await Promise.all([getContactAccessProfile(contactId), getOAuthClient(clientId)]) : [known, undefined];
    const copy = profile ? accessCopyOf(profile) : undefined;
    try {
      await runTransaction(
        [
          {
            Update: {
              TableName: table(),
              Key: oauthClientRecord.key({ clientId }),
              UpdateExpression: `SET entity = :entity, clientId = :clientId, contactId = :contactId${secretHash ? ', secretHash = :secretHash' : ''}${copy ? ', contactAccess = :copy' : ' REMOVE contactAccess'}`,
              ExpressionAttributeValues: {
                ':entity': oauthClientRecord.declaration.entity,
                ':clientId': clientId,
                ':contactId': contactId,
                ...(secretHash ? { ':secretHash': secretHash } : {}),
                ...(copy ? { ':copy': copy } : {}),
              },
            },
          },
          ...(copy ? credentialListing(contactId, { kind: 'OAUTHCLIENT', id: clientId }, 'contact', copy) : []),
          // A client bound to another contact no longer takes that contact's changes.
          ...(bound && bound.contactId !== contactId ? [credentialUnlisting(bound.contactId, 'OAUTHCLIENT', clientId)] : []),
        ],
        { label: 'The OAuth client' },
      );
      return;
    } catch (error) {
      if (!(error instanceof RecordChangedError) || known !== undefined || attempt >= 3) throw error;
    }
  }
}

export async function getOAuthClient(clientId: string): Promise<OAuthClientRecord | undefined> {
  const item = await getItem(oauthClientRecord.key({ clientId }));
  if (!item) return undefined;
  const contactId = item.contactId as string;
  const access = accessCopyIn(item, contactId);
  return {
    clientId: item.clientId as string,
    contactId,
    ...(item.secretHash ? { secretHash: item.secretHash as string } : {}),
    ...(item.selectedRoleId ? { selectedRoleId: item.selectedRoleId as string } : {}),
    ...(access ? { access } : {}),
  };
}

/** The client when `clientSecret` is its secret; undefined for an unknown client or a wrong secret. */
export async function verifyOAuthClientSecret(clientId: string, clientSecret: string): Promise<OAuthClientRecord | undefined> {
  const client = await getOAuthClient(clientId);
  if (!client?.secretHash) return undefined;
  return (await verifyPassword(clientSecret, client.secretHash)) ? client : undefined;
}

/**
 * Binds one role to the client's grant: later calls of that grant act with that role only.
 * A single attribute is set, not read and rewritten, so the last selection simply wins.
 */
export async function selectRoleForGrant(clientId: string, roleId: string, now = clock.now()): Promise<void> {
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: table(),
        Key: oauthClientRecord.key({ clientId }),
        UpdateExpression: 'SET selectedRoleId = :roleId, selectedAt = :now',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':roleId': roleId, ':now': now.toISOString() },
      }),
    );
  } catch (error) {
    if (isConditionalCheckFailure(error)) throw new NotFoundError(`OAuth client ${clientId}`);
    throw error;
  }
}

/** Fixed lifetime: a session is not extended by use, so a stolen cookie dies on schedule. */
export const SESSION_LIFETIME_SECONDS = 8 * 60 * 60;

/**
 * Opens a session for a contact that proved itself with an API key. The session keeps
 * the key's digest so that revoking the key also ends the sessions opened with it. Opened by a
 * key that carries a copy of its contact's access, the session carries it too, listed among the
 * contact's credentials, checked against the key in the same transaction: a change of the
 * contact committed since the key was read (which rewrote the key's copy) or the key's
 * revocation fails the opening. A key without a copy opens a session without one (read the old way).
 */
export async function createSession(
  owner: { contactId: string; apiKeyDigest: string; access?: AccessCopy },
  now = clock.now(),
): Promise<{ token: string; expiresAt: Date }> {
  const token = newToken('sess');
  const digest = digestToken(token);
  const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_SECONDS * 1000);
  const expiresAtSeconds = Math.floor(expiresAt.getTime() / 1000);
  const session = sessionRecord.create(
    { contactId: owner.contactId, apiKeyDigest: owner.apiKeyDigest, createdAt: now.toISOString(), expiresAt: expiresAtSeconds, ...(owner.access ? { contactAccess: owner.access } : {}) },
    { digest },
  );
  if (!owner.access) {
    await putItem(session);
    return { token, expiresAt };
  }
  await runTransaction(
    [
      session,
      ...credentialListing(owner.contactId, { kind: 'SESSION', id: digest, expiresAt: expiresAtSeconds, apiKeyDigest: owner.apiKeyDigest }, 'key', owner.access),
      {
        ConditionCheck: {
          TableName: table(),
          Key: apiKeyRecord.key({ digest: owner.apiKeyDigest }),
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(revokedAt) AND contactAccess.version = :version',
          ExpressionAttributeValues: { ':version': owner.access.version },
        },
      },
    ],
    { label: 'The session' },
  );
  return { token, expiresAt };
}

/**
 * The live session of a cookie token: refused once expired (TTL deletion lags by hours)
 * and once the API key that opened it is revoked. A session carrying its copy of the contact's
 * access is judged by its own record (its key's revocation is written onto it); one opened
 * before copies existed reads its key as well.
 */
export async function findLiveSession(token: string, now = clock.now()): Promise<{ contactId: string; expiresAt: Date; access?: AccessCopy } | undefined> {
  const item = await getItem(sessionRecord.key({ digest: digestToken(token) }));
  if (!item || typeof item.expiresAt !== 'number' || item.expiresAt * 1000 <= now.getTime()) return undefined;
  if (typeof item.apiKeyDigest !== 'string' || item.revokedAt) return undefined;
  const contactId = item.contactId as string;
  const access = accessCopyIn(item, contactId);
  if (access) return { contactId, expiresAt: new Date(item.expiresAt * 1000), access };
  // Read whole: a GetItem is billed by the item's size whatever it projects, and a key's record is one read unit.
  const key = await getItem(apiKeyRecord.key({ digest: item.apiKeyDigest }));
  if (!key || key.revokedAt) return undefined;
  return { contactId, expiresAt: new Date(item.expiresAt * 1000) };
}
