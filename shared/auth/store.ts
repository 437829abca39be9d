/**
 * The auth store: API keys (stored only as digests), OAuth clients with the role
 * selected for their grant, and browser sessions. The only code that knows their keys.
 *
 * Reads that decide whether a credential is accepted are strongly consistent, so that a
 * revocation or a role selection holds from the very next call.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../platform/clients.js';
import { config } from '../platform/config.js';
import { isConditionalCheckFailure, queryAll } from '../platform/dynamo.js';
import { RecordChangedError, runTransaction } from '../platform/transactions.js';
import { NotFoundError } from '../platform/errors.js';
import { hashPassword, verifyPassword } from '../platform/passwords.js';
import { apiKeyIdKey, apiKeyKey, apiKeysOfContactIndex, apiKeysOfContactQuery, oauthClientKey, sessionKey } from './keys.js';
import { digestToken, newToken } from './secrets.js';
import { clock } from '../platform/clock.js';

export interface ApiKeyRecord {
  keyId: string;
  contactId: string;
  description: string;
  createdAt: string;
  lastUsedAt?: string;
  revokedAt?: string;
}

export interface OAuthClientRecord {
  clientId: string;
  contactId: string;
  secretHash?: string;
  selectedRoleId?: string;
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
export async function createApiKey(contactId: string, description: string, apiKey = newToken('ias'), now = clock.now()) {
  const keyId = randomUUID();
  const createdAt = now.toISOString();
  const digest = digestToken(apiKey);
  await runTransaction(
    [
        {
          Put: {
            TableName: table(),
            Item: {
              ...apiKeyKey(digest),
              ...apiKeysOfContactIndex(contactId, createdAt, keyId),
              entity: 'ApiKey',
              keyId,
              contactId,
              description,
              createdAt,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Put: {
            TableName: table(),
            Item: { ...apiKeyIdKey(keyId), entity: 'ApiKeyId', keyId, digest },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ],
    { label: 'The API key' },
  );
  return { keyId, apiKey, contactId, description, createdAt };
}

/** The partitions (IAM `dynamodb:LeadingKeys` patterns) of every API key record: a role that records a key's use is scoped to them. */
export function apiKeyPartitionPattern(): string {
  return `${apiKeyKey('').pk}*`;
}

/**
 * The partitions (IAM `dynamodb:LeadingKeys` patterns) that ensuring an API key and an OAuth
 * client writes, by action: the key and its id pointer by Put (neither known before the run),
 * the OAuth client record by Update.
 */
export function credentialSeedPartitions(clientId: string): { put: string[]; update: string[] } {
  return { put: [apiKeyPartitionPattern(), `${apiKeyIdKey('').pk}*`], update: [oauthClientKey(clientId).pk] };
}

/** Makes sure `apiKey` works for the contact (bootstrap): creates it unless its digest exists. */
export async function ensureApiKey(contactId: string, apiKey: string, description: string): Promise<void> {
  try {
    await createApiKey(contactId, description, apiKey);
  } catch (error) {
    if (!(error instanceof RecordChangedError)) throw error;
  }
}

export async function findActiveApiKey(apiKey: string): Promise<(ApiKeyRecord & { digest: string }) | undefined> {
  const digest = digestToken(apiKey);
  const result = await documentClient().send(new GetCommand({ TableName: table(), Key: apiKeyKey(digest), ConsistentRead: true }));
  if (!result.Item || result.Item.revokedAt) return undefined;
  return { ...apiKeyRecordOf(result.Item), digest };
}

/** Records the last use at most once a minute, so that reads do not each cost a write. */
export async function recordApiKeyUse(digest: string, now = clock.now()): Promise<void> {
  const staleBefore = new Date(now.getTime() - 60_000).toISOString();
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: table(),
        Key: apiKeyKey(digest),
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
  return (await queryAll(apiKeysOfContactQuery(contactId))).map(apiKeyRecordOf);
}

/**
 * Revokes a key by its id and answers its record; undefined when no such key exists.
 * Revoking twice keeps the first revocation time.
 */
export async function revokeApiKey(keyId: string, now = clock.now()): Promise<ApiKeyRecord | undefined> {
  const pointer = await documentClient().send(new GetCommand({ TableName: table(), Key: apiKeyIdKey(keyId), ConsistentRead: true }));
  const digest = pointer.Item?.digest as string | undefined;
  if (!digest) return undefined;
  try {
    const result = await documentClient().send(
      new UpdateCommand({
        TableName: table(),
        Key: apiKeyKey(digest),
        UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :now)',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':now': now.toISOString() },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return apiKeyRecordOf(result.Attributes ?? {});
  } catch (error) {
    if (isConditionalCheckFailure(error)) return undefined;
    throw error;
  }
}

/** Creates or updates the OAuth client acting for a contact; keeps its selected role. */
export async function ensureOAuthClient(clientId: string, contactId: string, clientSecret?: string): Promise<void> {
  const secretHash = clientSecret === undefined ? undefined : await hashPassword(clientSecret);
  await documentClient().send(
    new UpdateCommand({
      TableName: table(),
      Key: oauthClientKey(clientId),
      UpdateExpression: `SET entity = :entity, clientId = :clientId, contactId = :contactId${secretHash ? ', secretHash = :secretHash' : ''}`,
      ExpressionAttributeValues: {
        ':entity': 'OAuthClient',
        ':clientId': clientId,
        ':contactId': contactId,
        ...(secretHash ? { ':secretHash': secretHash } : {}),
      },
    }),
  );
}

export async function getOAuthClient(clientId: string): Promise<OAuthClientRecord | undefined> {
  const result = await documentClient().send(new GetCommand({ TableName: table(), Key: oauthClientKey(clientId), ConsistentRead: true }));
  if (!result.Item) return undefined;
  return {
    clientId: result.Item.clientId as string,
    contactId: result.Item.contactId as string,
    ...(result.Item.secretHash ? { secretHash: result.Item.secretHash as string } : {}),
    ...(result.Item.selectedRoleId ? { selectedRoleId: result.Item.selectedRoleId as string } : {}),
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
        Key: oauthClientKey(clientId),
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
 * the key's digest so that revoking the key also ends the sessions opened with it.
 */
export async function createSession(
  owner: { contactId: string; apiKeyDigest: string },
  now = clock.now(),
): Promise<{ token: string; expiresAt: Date }> {
  const token = newToken('sess');
  const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_SECONDS * 1000);
  await documentClient().send(
    new PutCommand({
      TableName: table(),
      Item: {
        ...sessionKey(digestToken(token)),
        entity: 'Session',
        contactId: owner.contactId,
        apiKeyDigest: owner.apiKeyDigest,
        createdAt: now.toISOString(),
        expiresAt: Math.floor(expiresAt.getTime() / 1000),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return { token, expiresAt };
}

/**
 * The live session of a cookie token: refused once expired (TTL deletion lags by hours)
 * and once the API key that opened it is revoked.
 */
export async function findLiveSession(token: string, now = clock.now()): Promise<{ contactId: string; expiresAt: Date } | undefined> {
  const result = await documentClient().send(
    new GetCommand({ TableName: table(), Key: sessionKey(digestToken(token)), ConsistentRead: true }),
  );
  const item = result.Item;
  if (!item || typeof item.expiresAt !== 'number' || item.expiresAt * 1000 <= now.getTime()) return undefined;
  if (typeof item.apiKeyDigest !== 'string') return undefined;
  const key = await documentClient().send(
    new GetCommand({ TableName: table(), Key: apiKeyKey(item.apiKeyDigest), ConsistentRead: true, ProjectionExpression: 'revokedAt, pk' }),
  );
  if (!key.Item || key.Item.revokedAt) return undefined;
  return { contactId: item.contactId as string, expiresAt: new Date(item.expiresAt * 1000) };
}
