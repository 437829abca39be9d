/**
 * Reads of the catalog. The catalog changes only with a deploy or a bootstrap,
 * so a warm function keeps what it read for a minute.
 */
import { config } from '../platform/config.js';
import { batchWriteAll, getItem, putItem, queryAll } from '../platform/dynamo.js';
import { productFromRecords, type CarrierSettings, type CatalogKind, type ClaimsRules, type NonRenewalReason, type ProductCatalog, type RenewalRules, type Role } from './model.js';
import { catalogKey, type CatalogRecord } from './package-record-store.js';
import { catalogEntryRecord, productVersionRecord } from './records.js';

const CACHE_MS = 60_000;
const cache = new Map<string, { at: number; value: Promise<unknown> }>();

function cached<T>(key: string, load: () => Promise<T>): Promise<T> {
  const hit = cache.get(`${config.tableName()}|${key}`);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.value as Promise<T>;
  const value = load();
  cache.set(`${config.tableName()}|${key}`, { at: Date.now(), value });
  value.catch(() => cache.delete(`${config.tableName()}|${key}`));
  return value;
}

/** Drop cached catalog reads (tests and bootstrap reload the catalog). */
export function forgetCatalogCache(): void {
  cache.clear();
}

export async function listCatalog<T>(kind: CatalogKind): Promise<T[]> {
  return cached(`list:${kind}`, () => queryAll<T>(catalogEntryRecord.query({ kind })));
}

export async function getCatalogRecord<T>(kind: CatalogKind, id?: string): Promise<T | undefined> {
  return cached(`get:${kind}:${id ?? ''}`, async () => {
    return (await getItem(catalogKey(kind, id), false)) as T | undefined;
  });
}

export const listRoles = () => listCatalog<Role>('ROLE');
export const getCarrierSettings = async () => {
  const settings = await getCatalogRecord<CarrierSettings>('CARRIER');
  if (!settings) throw new Error('The carrier settings are missing from the catalog: run the bootstrap');
  return settings;
};

/** The renewal settings; the shipped defaults when a catalog seeded before they existed lacks them. */
export async function getRenewalRules(): Promise<RenewalRules> {
  const stored = await getCatalogRecord<Partial<RenewalRules>>('RENEWALRULES');
  return {
    leadDays: stored?.leadDays ?? 45,
    premiumIncreaseReviewPercent: stored?.premiumIncreaseReviewPercent ?? '10',
    nonRenewalNoticeDays: stored?.nonRenewalNoticeDays ?? 30,
  };
}

/** The product's claims rules as published (a package without claims-rules.json publishes the shipped ones). */
export async function getClaimsRules(): Promise<ClaimsRules> {
  const stored = await getCatalogRecord<ClaimsRules & Record<string, unknown>>('CLAIMSRULES');
  if (!stored) throw new Error('The claims rules are missing from the catalog: run the bootstrap (or publish the product again)');
  const { pk: _pk, sk: _sk, kind: _kind, catalogVersion, ...rules } = stored;
  return { ...(rules as unknown as ClaimsRules), version: String(catalogVersion) };
}

export const listNonRenewalReasons = () => listCatalog<NonRenewalReason>('NONRENEWALREASON');

/** Writes catalog records (idempotent: a record with the same key is replaced). */
export async function writeCatalogRecords(records: CatalogRecord[]): Promise<void> {
  await batchWriteAll(records.map((Item) => ({ PutRequest: { Item } })));
  forgetCatalogCache();
}

/** The whole product in one query of the catalog partition (cached like every catalog read). */
export async function getProductCatalog(): Promise<ProductCatalog> {
  return cached('product', async () => {
    const records = await queryAll(catalogEntryRecord.query({}));
    const product = productFromRecords(records);
    if (product.lines.length === 0) throw new Error('The product is missing from the catalog: run the bootstrap');
    return product;
  });
}

/** Every record of the catalog partition (cached like every catalog read): the billing settings read several kinds at once. */
export async function getCatalogRecords(): Promise<Array<Record<string, unknown>>> {
  return cached('records', () => queryAll(catalogEntryRecord.query({})));
}

// ---------------------------------------------------------------- published product versions

/** A product version published by import_line_file (or the shipped one, written at bootstrap): who, when, from when, and the line file itself. */
export interface ProductVersionRecord {
  versionId: string;
  lineId: string;
  lineName: string;
  /** The line file as published (a JSON document of its files), kept whole for get_export_line_file. */
  document: string;
  /** The earliest new-business and renewal dates of the rate versions it introduced. */
  effectiveDates: { newBusiness: string; renewal: string };
  /** The rate versions it introduced. */
  rateVersionIds: string[];
  status: 'published' | 'withdrawn';
  /** Every change to it, with who and when. */
  changeHistory: Array<{ action: 'published' | 'withdrawn'; by: string; at: string }>;
  /** The version in force before it (restored when it is withdrawn); absent for the first. */
  previousVersionId?: string;
  /** The rate impact run named when the carrier requires one before publishing. */
  impactRunId?: string;
  publishedAt: string;
}

export async function putProductVersion(record: ProductVersionRecord, condition: 'new' | { status: 'published' }): Promise<void> {
  await putItem(
    condition === 'new'
      ? productVersionRecord.create(record)
      : { Put: { ...productVersionRecord.put(record).Put!, ConditionExpression: '#status = :status', ExpressionAttributeNames: { '#status': 'status' }, ExpressionAttributeValues: { ':status': condition.status } } },
  );
}

export async function getProductVersion(versionId: string): Promise<ProductVersionRecord | undefined> {
  const item = await getItem(productVersionRecord.key({ versionId }), false);
  return item ? productVersionRecord.parse(item) : undefined;
}

/** Every product version, oldest first (a carrier publishes a few a year: one small partition). */
export async function listProductVersions(): Promise<ProductVersionRecord[]> {
  const versions = (await queryAll(productVersionRecord.query({}))).map(productVersionRecord.parse);
  return versions.sort((a, b) => a.publishedAt.localeCompare(b.publishedAt));
}

/** Removes catalog records by kind and id (a withdrawn version's rate versions). */
export async function deleteCatalogRecords(keys: ReadonlyArray<{ kind: CatalogKind; id: string }>): Promise<void> {
  await batchWriteAll(keys.map(({ kind, id }) => ({ DeleteRequest: { Key: catalogKey(kind, id) } })));
  forgetCatalogCache();
}

/**
 * The partitions (IAM `dynamodb:LeadingKeys`) the reference catalog seed touches: it reads the
 * published product versions (a carrier's own version is left alone) and writes catalog records.
 */
export function catalogSeedPartitions(): { read: string[]; write: string[] } {
  // Both partitions' templates name no attribute: they are the partitions' keys.
  return { read: [productVersionRecord.declaration.key.pk], write: [catalogEntryRecord.declaration.key.pk] };
}
