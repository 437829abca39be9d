/** The URL override store: the only code that knows the overrides' keys. */
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../platform/clients.js';
import { config } from '../platform/config.js';
import { isConditionalCheckFailure, queryAll } from '../platform/dynamo.js';
import { BusinessRuleError, ConcurrentChangeError } from '../platform/errors.js';
import { urlOverrideKey, urlOverridesQuery } from './keys.js';

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

const table = () => config.tableName();
const fromItem = (item: Record<string, unknown>): UrlOverrideRecord => {
  const { pk: _pk, sk: _sk, entity: _entity, ...record } = item;
  return record as unknown as UrlOverrideRecord;
};

export class UrlOverrideNotFoundError extends BusinessRuleError {
  constructor(url: string) {
    super(`url: there is no URL override for ${url}`);
    this.name = 'UrlOverrideNotFoundError';
  }
}

export async function createUrlOverride(record: UrlOverrideRecord): Promise<void> {
  try {
    await documentClient().send(
      new PutCommand({
        TableName: table(),
        Item: { ...urlOverrideKey(record.url), entity: 'UrlOverride', ...record },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  } catch (error) {
    if (isConditionalCheckFailure(error)) throw new BusinessRuleError(`url: a URL override for ${record.url} already exists`);
    throw error;
  }
}

export async function getUrlOverride(url: string): Promise<UrlOverrideRecord | undefined> {
  const result = await documentClient().send(new GetCommand({ TableName: table(), Key: urlOverrideKey(url), ConsistentRead: true }));
  return result.Item ? fromItem(result.Item) : undefined;
}

/** Replaces an override read at `expectedVersion`; a concurrent change or delete is refused. */
export async function replaceUrlOverride(record: UrlOverrideRecord, expectedVersion: number): Promise<void> {
  try {
    await documentClient().send(
      new PutCommand({
        TableName: table(),
        Item: { ...urlOverrideKey(record.url), entity: 'UrlOverride', ...record },
        ConditionExpression: 'version = :version',
        ExpressionAttributeValues: { ':version': expectedVersion },
      }),
    );
  } catch (error) {
    if (isConditionalCheckFailure(error)) throw new ConcurrentChangeError(`The URL override for ${record.url}`);
    throw error;
  }
}

export async function deleteUrlOverride(url: string): Promise<void> {
  try {
    await documentClient().send(new DeleteCommand({ TableName: table(), Key: urlOverrideKey(url), ConditionExpression: 'attribute_exists(pk)' }));
  } catch (error) {
    if (isConditionalCheckFailure(error)) throw new UrlOverrideNotFoundError(url);
    throw error;
  }
}

export async function listUrlOverrides(): Promise<UrlOverrideRecord[]> {
  return (await queryAll(urlOverridesQuery())).map(fromItem);
}
