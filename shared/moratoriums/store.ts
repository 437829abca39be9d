/** The moratoriums area's records (keys.ts): the only code that knows the area's keys. */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../platform/clients.js';
import { config } from '../platform/config.js';
import { isConditionalCheckFailure, queryAll } from '../platform/dynamo.js';
import { withoutStorageKeys, type TransactionWrite } from '../platform/transactions.js';
import { allMoratoriumsQuery, moratoriumKey, moratoriumRecordsQuery, refusalKey, releaseKey } from './keys.js';
import type { Moratorium, MoratoriumRefusal, MoratoriumRelease } from './model.js';

const table = () => config.tableName();

/** A new moratorium, as one write of the declaration's transaction (with its event). */
export function moratoriumCreate(moratorium: Moratorium): TransactionWrite {
  return { Put: { TableName: table(), Item: { ...moratoriumKey(moratorium.moratoriumId), entity: 'Moratorium', ...moratorium }, ConditionExpression: 'attribute_not_exists(pk)' } };
}

/** A moratorium changed (lifted), guarded by the version it was read at. */
export function moratoriumUpdate(moratorium: Moratorium, readVersion: number): TransactionWrite {
  return {
    Put: {
      TableName: table(),
      Item: { ...moratoriumKey(moratorium.moratoriumId), entity: 'Moratorium', ...moratorium, version: readVersion + 1 },
      ConditionExpression: 'version = :version',
      ExpressionAttributeValues: { ':version': readVersion },
    },
  };
}

export async function getMoratorium(moratoriumId: string): Promise<Moratorium | undefined> {
  const { Item } = await documentClient().send(new GetCommand({ TableName: table(), Key: moratoriumKey(moratoriumId), ConsistentRead: true }));
  return Item ? withoutStorageKeys<Moratorium>(Item) : undefined;
}

export async function listMoratoriums(): Promise<Moratorium[]> {
  const items = await queryAll(allMoratoriumsQuery());
  return items.map((item) => withoutStorageKeys<Moratorium>(item));
}

/** A policy released from a moratorium; releasing it again keeps the first release. */
export async function putRelease(release: MoratoriumRelease): Promise<boolean> {
  try {
    await documentClient().send(new PutCommand({ TableName: table(), Item: { ...releaseKey(release.moratoriumId, release.policyId), entity: 'MoratoriumRelease', ...release }, ConditionExpression: 'attribute_not_exists(pk)' }));
    return true;
  } catch (error) {
    if (isConditionalCheckFailure(error)) return false;
    throw error;
  }
}

export async function putRefusal(refusal: MoratoriumRefusal): Promise<void> {
  await documentClient().send(new PutCommand({ TableName: table(), Item: { ...refusalKey(refusal.moratoriumId, refusal.at, refusal.refusalId), entity: 'MoratoriumRefusal', ...refusal }, ConditionExpression: 'attribute_not_exists(pk)' }));
}

/** A moratorium's releases and refusals (refusals oldest first). */
export async function moratoriumRecords(moratoriumId: string): Promise<{ releases: MoratoriumRelease[]; refusals: MoratoriumRefusal[] }> {
  const items = await queryAll(moratoriumRecordsQuery(moratoriumId));
  return {
    releases: items.filter((item) => item.entity === 'MoratoriumRelease').map((item) => withoutStorageKeys<MoratoriumRelease>(item)),
    refusals: items.filter((item) => item.entity === 'MoratoriumRefusal').map((item) => withoutStorageKeys<MoratoriumRefusal>(item)),
  };
}

/** The releases of one policy from any of `moratoriumIds`. */
export async function releasesOf(moratoriumIds: readonly string[], policyId: string): Promise<MoratoriumRelease[]> {
  const found = await Promise.all(
    moratoriumIds.map(async (moratoriumId) => (await documentClient().send(new GetCommand({ TableName: table(), Key: releaseKey(moratoriumId, policyId), ConsistentRead: true }))).Item),
  );
  return found.filter((item): item is Record<string, unknown> => !!item).map((item) => withoutStorageKeys<MoratoriumRelease>(item));
}
