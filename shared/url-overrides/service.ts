/** URL overrides (spec 2.4, 4.2): an internal page path replaced by an external URL. */
import type { Principal } from '../platform/principal.js';
import { BusinessRuleError } from '../platform/errors.js';
import type { CreateUrlOverrideInput, UpdateUrlOverrideInput } from './schemas.js';
import { EncryptionKeyMissingError } from '../platform/sealing.js';
import { decryptSecret, encryptSecret } from './secrets.js';
import { createUrlOverride, deleteUrlOverride, getUrlOverride, listUrlOverrides, replaceUrlOverride, UrlOverrideNotFoundError, type UrlOverrideRecord } from './store.js';
import { clock } from '../platform/clock.js';

export interface UrlOverrideView {
  url: string;
  override: string;
  http_method: 'GET' | 'POST';
  enabled: boolean;
  shared_secret: string | null;
  category: string | null;
}

/** The wire shape; the secret in clear only for an administrator. */
export function toView(record: UrlOverrideRecord, principal: Pick<Principal, 'isAdministrator'>): UrlOverrideView {
  let sharedSecret: string | null = null;
  if (record.sharedSecretCipher && principal.isAdministrator) sharedSecret = decryptSecret(record.sharedSecretCipher, record.url) ?? null;
  return {
    url: record.url,
    override: record.override,
    http_method: record.httpMethod,
    enabled: record.enabled,
    shared_secret: sharedSecret,
    category: record.category ?? null,
  };
}

function sealSecret(secret: string, url: string): string {
  try {
    return encryptSecret(secret, url);
  } catch (error) {
    if (error instanceof EncryptionKeyMissingError) throw new BusinessRuleError('shared_secret: cannot be stored: the service has no encryption key configured');
    throw error;
  }
}

export async function createOverride(input: CreateUrlOverrideInput, principal: Principal): Promise<UrlOverrideView> {
  const now = clock.now().toISOString();
  const record: UrlOverrideRecord = {
    url: input.url,
    override: input.override,
    httpMethod: input.http_method,
    enabled: input.enabled,
    ...(input.shared_secret ? { sharedSecretCipher: sealSecret(input.shared_secret, input.url) } : {}),
    ...(input.category ? { category: input.category } : {}),
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  await createUrlOverride(record);
  return toView(record, principal);
}

/** Changes only the fields passed; `shared_secret` or `category` null (or empty) clears them. */
export async function updateOverride(input: UpdateUrlOverrideInput, principal: Principal): Promise<UrlOverrideView> {
  const current = await getUrlOverride(input.url);
  if (!current) throw new UrlOverrideNotFoundError(input.url);
  const next: UrlOverrideRecord = { ...current, updatedAt: clock.now().toISOString(), version: current.version + 1 };
  if (input.override !== undefined) next.override = input.override;
  if (input.enabled !== undefined) next.enabled = input.enabled;
  if (input.http_method !== undefined) next.httpMethod = input.http_method;
  if (input.shared_secret !== undefined) {
    if (input.shared_secret === null) delete next.sharedSecretCipher;
    else next.sharedSecretCipher = sealSecret(input.shared_secret, input.url);
  }
  if (input.category !== undefined) {
    if (input.category === null) delete next.category;
    else next.category = input.category;
  }
  await replaceUrlOverride(next, current.version);
  return toView(next, principal);
}

export async function deleteOverride(url: string): Promise<void> {
  await deleteUrlOverride(url);
}

export async function retrieveOverrides(principal: Principal): Promise<UrlOverrideView[]> {
  return (await listUrlOverrides()).map((record) => toView(record, principal));
}
