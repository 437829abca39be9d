/** The URL override store: the only code that knows the overrides' keys. */
import { deleteItem, getItem, isConditionalCheckFailure, putItem, queryAll } from '../platform/dynamo.js';
import { BusinessRuleError, ConcurrentChangeError } from '../platform/errors.js';
import { urlOverrideRecord } from './records.js';

export interface UrlOverrideRecord {
  url: string;
  override: string;
  httpMethod: 'GET' | 'POST';
  enabled: boolean;
  /** AES-GCM ciphertext (secrets.ts); absent when no secret is set. */
  sharedSecretCipher?: string;
  category?: string;
  createdAt: string;
  updatedAt: string;
  version: number;
}

export class UrlOverrideNotFoundError extends BusinessRuleError {
  constructor(url: string) {
    super(`url: there is no URL override for ${url}`);
    this.name = 'UrlOverrideNotFoundError';
  }
}

export async function createUrlOverride(record: UrlOverrideRecord): Promise<void> {
  try {
    await putItem(urlOverrideRecord.create(record));
  } catch (error) {
    if (isConditionalCheckFailure(error)) throw new BusinessRuleError(`url: a URL override for ${record.url} already exists`);
    throw error;
  }
}

export async function getUrlOverride(url: string): Promise<UrlOverrideRecord | undefined> {
  const item = await getItem(urlOverrideRecord.key({ url }));
  return item ? urlOverrideRecord.parse(item) : undefined;
}

/** Replaces an override read at `expectedVersion` (stored at the version after it); a concurrent change or delete is refused. */
export async function replaceUrlOverride(record: UrlOverrideRecord, expectedVersion: number): Promise<void> {
  try {
    await putItem(urlOverrideRecord.replace(record, expectedVersion));
  } catch (error) {
    if (isConditionalCheckFailure(error)) throw new ConcurrentChangeError(`The URL override for ${record.url}`);
    throw error;
  }
}

export async function deleteUrlOverride(url: string): Promise<void> {
  try {
    await deleteItem(urlOverrideRecord.remove({ url }, { exists: true }));
  } catch (error) {
    if (isConditionalCheckFailure(error)) throw new UrlOverrideNotFoundError(url);
    throw error;
  }
}

export async function listUrlOverrides(): Promise<UrlOverrideRecord[]> {
  return (await queryAll(urlOverrideRecord.query({}))).map(urlOverrideRecord.parse);
}
