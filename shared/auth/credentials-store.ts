/**
 * The copies of a contact's access that its credentials carry, and the partition that lists
 * the credentials of a contact (shared/auth/records.ts), so that authentication reads one record:
 * the API key's, the session's or the OAuth client's, never the contact's as well.
 *
 * Kept true by two guards, each one transaction:
 * - a change of the contact's access (contacts' storeRoles) reads the partition strongly and
 *   rewrites every listed credential's copy, checking that the partition's generation is still
 *   the one it read: a credential listed meanwhile makes it fail rather than miss it;
 * - a new credential takes its copy from the contact (a key, an OAuth client) or from the key
 *   that opens it (a session), and checks that this source is still at the version copied: a
 *   change committed meanwhile did not know the new credential, so the issue fails instead.
 * Not read on a request path: authentication reads only what the records themselves carry.
 */
import { contactAtVersionCheck, type ContactAccessProfile } from '../contacts/index.js';
import { config } from '../platform/config.js';
import { queryAll } from '../platform/dynamo.js';
import type { TransactionWrite } from '../platform/transactions.js';
import { apiKeyRecord, contactCredentialRecord, contactCredentialsHeadRecord, oauthClientRecord, sessionRecord } from './records.js';

/** The kinds of credential that carry a copy of their contact's access. */
export type CredentialKindStored = 'APIKEY' | 'SESSION' | 'OAUTHCLIENT';

/** A credential listed among its contact's (records.ts contactCredentialRecord). */
export interface ContactCredentialEntry {
  kind: CredentialKindStored;
  credentialId: string;
  apiKeyDigest?: string;
  /** A session's end, epoch seconds: the table's TTL attribute, so that the entry goes with its session. */
  expiresAt?: number;
}

/** The head of a contact's credentials: advanced by every credential listed. */
export interface ContactCredentialsHead {
  generation?: number;
}

/** An API key's record: keyed by the digest of the key, which it does not store. */
export interface ApiKeyStored {
  keyId: string;
  contactId: string;
  description: string;
  createdAt: string;
  lastUsedAt?: string;
  revokedAt?: string;
  contactAccess?: AccessCopy;
}

/** A browser session's record: keyed by the digest of its token, which it does not store. */
export interface SessionRecord {
  contactId: string;
  apiKeyDigest: string;
  createdAt: string;
  /** Epoch seconds: the table's TTL attribute. */
  expiresAt: number;
  contactAccess?: AccessCopy;
  revokedAt?: string;
}

/** A copy of what authentication needs of its contact, as a credential's record carries it (`contactAccess`). */
export interface AccessCopy {
  contactId: string;
  version: number;
  roleIds: string[];
  agencyIds: string[];
  terminated: boolean;
  agencyInactive: boolean;
}

export const accessCopyOf = (profile: ContactAccessProfile): AccessCopy => ({
  contactId: profile.contactId,
  version: profile.version,
  roleIds: profile.roleIds,
  agencyIds: profile.agencyIds,
  terminated: profile.terminated,
  agencyInactive: profile.agencyInactive,
});

/** A session closer to its end than this is ended by a change of its contact's access rather than given the new copy. */
const SESSION_END_MARGIN_MS = 120_000;

interface CredentialEntry {
  kind: CredentialKindStored;
  id: string;
  /** A session's end (epoch seconds) and the digest of the key that opened it. */
  expiresAt?: number;
  apiKeyDigest?: string;
}

const table = () => config.tableName();

/** The contact's listed credentials and the generation of the list, read strongly. */
async function contactCredentials(contactId: string): Promise<{ generation: number; entries: CredentialEntry[] }> {
  const items = await queryAll(contactCredentialRecord.partition({ contactId }));
  let generation = 0;
  const entries: CredentialEntry[] = [];
  for (const item of items) {
    if (contactCredentialsHeadRecord.is(item)) generation = contactCredentialsHeadRecord.parse(item).generation ?? 0;
    else entries.push({ kind: item.kind as CredentialKindStored, id: item.credentialId as string, ...(typeof item.expiresAt === 'number' ? { expiresAt: item.expiresAt } : {}), ...(typeof item.apiKeyDigest === 'string' ? { apiKeyDigest: item.apiKeyDigest } : {}) });
  }
  return { generation, entries };
}

/** Fails the transaction when a credential was listed since the list was read. */
function generationGuard(contactId: string, generation: number): TransactionWrite {
  return {
    ConditionCheck: {
      TableName: table(),
      Key: contactCredentialsHeadRecord.key({ contactId }),
      ConditionExpression: generation === 0 ? 'attribute_not_exists(generation)' : 'generation = :generation',
      ...(generation === 0 ? {} : { ExpressionAttributeValues: { ':generation': generation } }),
    },
  };
}

/** The record a listed credential is read by. */
function recordKey(entry: Pick<CredentialEntry, 'kind' | 'id'>) {
  return entry.kind === 'APIKEY' ? apiKeyRecord.key({ digest: entry.id }) : entry.kind === 'SESSION' ? sessionRecord.key({ digest: entry.id }) : oauthClientRecord.key({ clientId: entry.id });
}

/**
 * The writes that list a new credential of the contact: its entry, and the head's generation
 * advanced (so that a change of the contact that read the list before fails), with the check
 * that the contact is still at the version its copy was taken from (for a session, the opening
 * key's check stands in: the caller gives it).
 */
export function credentialListing(contactId: string, entry: CredentialEntry, source: 'contact' | 'key', copy: AccessCopy | undefined): TransactionWrite[] {
  return [
    contactCredentialRecord.put(
      {
        kind: entry.kind,
        credentialId: entry.id,
        ...(entry.apiKeyDigest ? { apiKeyDigest: entry.apiKeyDigest } : {}),
        // A session's entry goes with the session: the table's TTL removes both.
        ...(entry.expiresAt ? { expiresAt: entry.expiresAt } : {}),
      },
      { contactId },
    ),
    {
      Update: {
        TableName: table(),
        Key: contactCredentialsHeadRecord.key({ contactId }),
        UpdateExpression: 'SET entity = :entity ADD generation :one',
        ExpressionAttributeValues: { ':entity': contactCredentialsHeadRecord.declaration.entity, ':one': 1 },
      },
    },
    ...(source === 'contact' && copy ? [contactAtVersionCheck(contactId, copy.version)] : []),
  ];
}

/**
 * The writes that give every live credential of the contact the copy of its access after a
 * change, for the change's own transaction. A session about to end is ended instead (its record
 * and its entry deleted): giving it the copy could race the table's TTL and recreate it.
 */
export async function accessCopyWrites(after: ContactAccessProfile, now = Date.now()): Promise<TransactionWrite[]> {
  const { generation, entries } = await contactCredentials(after.contactId);
  if (entries.length === 0 && generation === 0) return [generationGuard(after.contactId, 0)];
  const copy = accessCopyOf(after);
  const writes: TransactionWrite[] = [generationGuard(after.contactId, generation)];
  for (const entry of entries) {
    if (entry.expiresAt !== undefined && entry.expiresAt * 1000 <= now) continue;
    if (entry.expiresAt !== undefined && entry.expiresAt * 1000 <= now + SESSION_END_MARGIN_MS) {
      writes.push({ Delete: { TableName: table(), Key: recordKey(entry) } }, credentialUnlisting(after.contactId, entry.kind, entry.id));
      continue;
    }
    writes.push({
      Update: {
        TableName: table(),
        Key: recordKey(entry),
        UpdateExpression: 'SET contactAccess = :copy',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':copy': copy },
      },
    });
  }
  return writes;
}

/**
 * The writes that end the sessions a revoked key opened (their copies say so), beside the key's
 * own revocation, guarded like a change of access: a session opened meanwhile fails the revocation.
 */
export async function sessionRevocationWrites(contactId: string, apiKeyDigest: string, revokedAt: string, now = Date.now()): Promise<TransactionWrite[]> {
  const { generation, entries } = await contactCredentials(contactId);
  const writes: TransactionWrite[] = [generationGuard(contactId, generation)];
  for (const entry of entries) {
    if (entry.kind !== 'SESSION' || entry.apiKeyDigest !== apiKeyDigest) continue;
    if (entry.expiresAt !== undefined && entry.expiresAt * 1000 <= now + SESSION_END_MARGIN_MS) {
      if (entry.expiresAt * 1000 > now) writes.push({ Delete: { TableName: table(), Key: recordKey(entry) } });
      continue;
    }
    writes.push({
      Update: {
        TableName: table(),
        Key: recordKey(entry),
        UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :now)',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':now': revokedAt },
      },
    });
  }
  return writes;
}

/** An OAuth client bound to another contact leaves the list of the one it acted for. */
export function credentialUnlisting(contactId: string, kind: CredentialKindStored, id: string): TransactionWrite {
  return contactCredentialRecord.remove({ contactId, kind, credentialId: id });
}
