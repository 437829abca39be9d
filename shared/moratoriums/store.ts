/** The moratoriums area's records (records.ts): the only code that knows the area's keys. */
import { getItem, isConditionalCheckFailure, putItem, queryAll } from '../platform/dynamo.js';
import type { TransactionWrite } from '../platform/transactions.js';
import { moratoriumRecord, moratoriumRefusalRecord, moratoriumReleaseRecord } from './records.js';
import type { Moratorium, MoratoriumRefusal, MoratoriumRelease } from './model.js';

/** A new moratorium, as one write of the declaration's transaction (with its event). */
export function moratoriumCreate(moratorium: Moratorium): TransactionWrite {
  return moratoriumRecord.create(moratorium);
}

/** A moratorium changed (lifted), guarded by the version it was read at. */
export function moratoriumUpdate(moratorium: Moratorium, readVersion: number): TransactionWrite {
  return moratoriumRecord.replace(moratorium, readVersion);
}

export async function getMoratorium(moratoriumId: string): Promise<Moratorium | undefined> {
  const item = await getItem(moratoriumRecord.key({ moratoriumId }));
  return item ? moratoriumRecord.parse(item) : undefined;
}

export async function listMoratoriums(): Promise<Moratorium[]> {
  return (await queryAll(moratoriumRecord.query({}, { consistent: true }))).map(moratoriumRecord.parse);
}

/** A policy released from a moratorium; releasing it again keeps the first release. */
export async function putRelease(release: MoratoriumRelease): Promise<boolean> {
  try {
    await putItem(moratoriumReleaseRecord.create(release));
    return true;
  } catch (error) {
    if (isConditionalCheckFailure(error)) return false;
    throw error;
  }
}

export async function putRefusal(refusal: MoratoriumRefusal): Promise<void> {
  await putItem(moratoriumRefusalRecord.create(refusal));
}

/** A moratorium's releases and refusals (refusals oldest first). */
export async function moratoriumRecords(moratoriumId: string): Promise<{ releases: MoratoriumRelease[]; refusals: MoratoriumRefusal[] }> {
  const items = await queryAll(moratoriumReleaseRecord.partition({ moratoriumId }));
  return {
    releases: items.filter(moratoriumReleaseRecord.is).map(moratoriumReleaseRecord.parse),
    refusals: items.filter(moratoriumRefusalRecord.is).map(moratoriumRefusalRecord.parse),
  };
}

/** The releases of one policy from any of `moratoriumIds`. */
export async function releasesOf(moratoriumIds: readonly string[], policyId: string): Promise<MoratoriumRelease[]> {
  const found = await Promise.all(moratoriumIds.map((moratoriumId) => getItem(moratoriumReleaseRecord.key({ moratoriumId, policyId }))));
  return found.filter((item) => !!item).map(moratoriumReleaseRecord.parse);
}
