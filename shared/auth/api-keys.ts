/**
 * Administrators' management of API keys: issue one for a contact (its only showing),
 * list a contact's keys without key material, revoke one by id.
 */
import { getContactAccessProfile } from '../contacts/index.js';
import { NotFoundError } from '../platform/errors.js';
import { createApiKey, listApiKeys, revokeApiKey, type ApiKeyRecord } from './store.js';

/** Managing keys is an Administrator's task; Administrator holds `*`. */
export const MANAGE_API_KEYS = 'api_keys:manage';

async function requireContact(contactId: string): Promise<void> {
  if (!(await getContactAccessProfile(contactId))) throw new NotFoundError(`Contact ${contactId}`);
}

/** A new key for the contact; the answer is the only place the key ever appears. */
export async function issueApiKeyTo(contactId: string, description: string) {
  await requireContact(contactId);
  return createApiKey(contactId, description);
}

export async function apiKeysOf(contactId: string): Promise<ApiKeyRecord[]> {
  await requireContact(contactId);
  return listApiKeys(contactId);
}

export async function revokeApiKeyById(keyId: string): Promise<ApiKeyRecord> {
  const revoked = await revokeApiKey(keyId);
  if (!revoked) throw new NotFoundError(`API key ${keyId}`);
  return revoked;
}

/** How a key is described on the wire: everything but the key. */
export function apiKeyDescription(key: ApiKeyRecord) {
  return {
    key_id: key.keyId,
    contact_id: key.contactId,
    description: key.description,
    status: key.revokedAt ? ('revoked' as const) : ('active' as const),
    created_at: key.createdAt,
    last_used_at: key.lastUsedAt ?? null,
    revoked_at: key.revokedAt ?? null,
  };
}
