/**
 * Publishing a carrier's product without a deploy (docs/products.md): an Administrator
 * imports a line file (a product package as one JSON document); the service validates it and
 * runs its worksheets, then stores it as an immutable product version with its effective
 * dates, and puts its records in the catalog. Rate versions already published keep rating
 * exactly as they did: each is stored with the steps of every item and the territory table it
 * was published with, so a later version's changes never reach an older term. A version can
 * be withdrawn before its first effective date; the vendor's reads list the versions, their
 * states and lines, and export a version's line file.
 */
import { randomUUID } from 'node:crypto';
import { clock } from '../platform/clock.js';
import {
  chargeItems,
  deleteCatalogRecords,
  forgetCatalogCache,
  getProductCatalog,
  getProductVersion,
  listProductVersions,
  packageRecords,
  putProductVersion,
  readPackage,
  referencePackageDocument,
  resolveFiling,
  STATE_NAMES,
  writeCatalogRecords,
  type CatalogRecord,
  type PackageDocument,
  type ProductCatalog,
  type ProductPackage,
  type ProductVersionRecord,
  type RateVersion,
} from '../catalog/index.js';
import { todayIso } from '../platform/dates.js';
import { BusinessRuleError, NotFoundError } from '../platform/errors.js';
import type { Principal } from '../platform/principal.js';

/** A DynamoDB item holds 400 KB; the line file is kept whole in one. */
export const MAX_DOCUMENT_CHARS = 350_000;

/**
 * A rate version as it rates for good: every item's steps (its own, else the product's), the
 * state's charges included, and the state's territory table.
 */
export function frozen(version: RateVersion, product: ProductCatalog): RateVersion {
  const filing = resolveFiling(product, version.state ?? null);
  const items: RateVersion['items'] = {};
  for (const item of product.items) items[item.id] = version.items[item.id] ?? { steps: item.rating.steps };
  return { ...version, items, ...(version.territories ?? filing.territories ? { territories: version.territories ?? filing.territories! } : {}) };
}

/** JSON with object keys sorted: stored records come back with their keys in another order. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, entry) => (entry && typeof entry === 'object' && !Array.isArray(entry) ? Object.fromEntries(Object.entries(entry).sort(([a], [b]) => a.localeCompare(b))) : entry));
}

export const productOf = (records: readonly CatalogRecord[]) => {
  const product = { lines: [], policyTypes: [], subLines: [], items: [], questions: [], forms: [], underwritingRules: [], rateVersions: [], filings: [] } as ProductCatalog;
  for (const record of records) {
    const list = ({ LINE: 'lines', POLICYTYPE: 'policyTypes', SUBLINE: 'subLines', ITEM: 'items', QUESTION: 'questions', FORM: 'forms', RATEVERSION: 'rateVersions', FILING: 'filings' } as Record<string, keyof ProductCatalog>)[record.kind];
    if (list) (product[list] as unknown[]).push(record);
  }
  product.items.push(...chargeItems(product));
  return product;
};


/**
 * withdraw_line_file: a published version taken back before its first effective date: its
 * rate versions leave the catalog and the version before it is put back. Only the latest
 * published version can be withdrawn (a later one was built on it).
 */
export async function withdrawLineFile(principal: Principal, versionId: string, now = clock.now()): Promise<{ version_id: string; status: 'withdrawn'; restored_version_id: string | null }> {
  const record = await getProductVersion(versionId);
  if (!record || record.status === undefined) throw new NotFoundError(`Product version ${versionId}`);
  if (record.status !== 'published') throw new BusinessRuleError(`version_id: version ${versionId} is ${record.status} already`);
  const today = todayIso(now);
  const first = [record.effectiveDates.newBusiness, record.effectiveDates.renewal].sort()[0];
  if (first <= today) throw new BusinessRuleError(`version_id: version ${versionId} is in force since ${first}; a version can be withdrawn only before its first effective date`);
  const later = (await listProductVersions()).filter((version) => version.status === 'published' && version.publishedAt > record.publishedAt);
  if (later.length > 0) throw new BusinessRuleError(`version_id: version ${later[0].versionId}, published after it, must be withdrawn first`);
  const at = now.toISOString();
  await putProductVersion({ ...record, status: 'withdrawn', changeHistory: [...record.changeHistory, { action: 'withdrawn', by: principal.contactId, at }] }, { status: 'published' });
  await deleteCatalogRecords(record.rateVersionIds.map((id) => ({ kind: 'RATEVERSION', id })));
  const previous = record.previousVersionId ? await getProductVersion(record.previousVersionId) : undefined;
  if (previous) {
    const restored = readPackage(JSON.parse(previous.document)).package;
    if (restored) {
      // The earlier version's records back, without touching the rate versions (frozen when this one was published).
      await writeCatalogRecords(packageRecords(restored).filter((item) => item.kind !== 'RATEVERSION').map((item) => ({ ...item, catalogVersion: previous.versionId })));
    }
  }
  return { version_id: versionId, status: 'withdrawn', restored_version_id: previous?.versionId ?? null };
}

// ---------------------------------------------------------------- the vendor's reads

/** The shipped product, before any version was published: its line's effective dates. */
async function allVersions(): Promise<Array<{ record?: ProductVersionRecord; id: string; description: string; creation_date: string; effective_date: string; change_history: unknown[]; override_lock: boolean }>> {
  const [product, published] = await Promise.all([getProductCatalog(), listProductVersions()]);
  const shipped = product.lines.flatMap((line) => line.effectiveDates).map((date) => ({ ...date }));
  return [
    ...shipped,
    ...published.map((record) => ({
      record,
      id: record.versionId,
      description: `${record.lineName} line file published ${record.publishedAt.slice(0, 10)}${record.status === 'withdrawn' ? ' (withdrawn)' : ''}`,
      creation_date: record.publishedAt.slice(0, 10),
      effective_date: record.effectiveDates.newBusiness,
      change_history: record.changeHistory,
      override_lock: record.status !== 'published',
    })),
  ];
}

export async function getAllEffectiveDates() {
  return (await allVersions()).map(({ record: _record, ...date }) => date);
}

async function packageOf(effectiveDateId: string): Promise<ProductPackage | null> {
  const version = (await allVersions()).find((candidate) => candidate.id === effectiveDateId);
  if (!version) throw new NotFoundError(`Effective date ${effectiveDateId}`);
  if (!version.record) return null;
  return readPackage(JSON.parse(version.record.document)).package ?? null;
}

interface StateRow {
  id: string;
  name: string;
  abbreviation: string;
  written: boolean;
}

/** The states of a version: those it files (countrywide stands for every other state). */
export async function getAllStates(effectiveDateId: string): Promise<StateRow[]> {
  const pkg = await packageOf(effectiveDateId);
  const filings = pkg ? pkg.filings : ((await getProductCatalog()).filings ?? []);
  const countrywide = filings.find((filing) => filing.state === 'countrywide');
  return Object.entries(STATE_NAMES).map(([code, name]) => {
    const own = filings.find((filing) => filing.state === code);
    return { id: code, name, abbreviation: code, written: own?.written ?? countrywide?.written ?? true };
  });
}

/** The lines a version writes in a state (location_id: the state's id from get_all_states). */
export async function getAllLines(effectiveDateId: string, locationId: string) {
  const pkg = await packageOf(effectiveDateId);
  const product = pkg ? productOf(packageRecords(pkg)) : await getProductCatalog();
  const code = locationId.trim().toUpperCase();
  if (!STATE_NAMES[code]) throw new BusinessRuleError(`location_id: no state ${locationId.slice(0, 40)}; get_all_states lists them`);
  const filing = resolveFiling(product, code);
  if (!filing.written) return [];
  return product.lines.map((line) => ({
    id: line.id,
    name: line.name,
    default: line.default ?? false,
    state: code,
    filed_as: filing.filedAs,
    effective_date_id: effectiveDateId,
    written_from: filing.availability,
    policy_types: product.policyTypes.filter((type) => type.lineId === line.id).map((type) => ({ id: type.id, name: type.name })),
  }));
}

/** How the caller named the fields (the vendor's client says curr_eff_date_id, curr_line_id, curr_state_id): messages name the field it sent. */
export interface ExportLineFileRequest {
  effectiveDateId: string;
  lineId?: { value: string; field: string };
  stateId?: { value: string; field: string };
}

/**
 * The line file of a version as published (the shipped product's package for its own effective
 * date), as the JSON-encoded string the vendor's client decodes itself. A line or state named
 * must be one the version has; the file is the whole package all the same (every state's rates travel in it).
 */
export async function getExportLineFile(request: ExportLineFileRequest): Promise<string> {
  const version = (await allVersions()).find((candidate) => candidate.id === request.effectiveDateId);
  if (!version) throw new NotFoundError(`Effective date ${request.effectiveDateId}`);
  if (request.stateId && !STATE_NAMES[request.stateId.value.trim().toUpperCase()]) {
    throw new BusinessRuleError(`${request.stateId.field}: no state ${request.stateId.value.slice(0, 40)}; get_all_states lists them`);
  }
  if (request.lineId) {
    const pkg = await packageOf(request.effectiveDateId);
    const product = pkg ? productOf(packageRecords(pkg)) : await getProductCatalog();
    if (!product.lines.some((line) => line.id === request.lineId!.value)) {
      throw new BusinessRuleError(`${request.lineId.field}: the effective date ${request.effectiveDateId} has no line ${request.lineId.value.slice(0, 40)}; get_all_lines lists them`);
    }
  }
  // The shipped product was seeded, not published: its package travels with the code.
  return version.record ? version.record.document : JSON.stringify(referencePackageDocument());
}
