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
import { checkProductPackage } from './check.js';

/** A DynamoDB item holds 400 KB; the line file is kept whole in one. */
const MAX_DOCUMENT_CHARS = 350_000;

function problemsOf(check: ReturnType<typeof checkProductPackage>): string[] {
  const messages = check.problems.map((problem) => `line_file: ${problem.file}${problem.path ? ` at ${problem.path}` : ''}: ${problem.problem}`);
  for (const run of check.worksheets) {
    for (const difference of run.differences) messages.push(`line_file: worksheet ${run.file} (${run.name}): ${difference.figure}: expected ${difference.expected}, rated ${difference.actual}`);
  }
  return messages;
}

/**
 * A rate version as it rates for good: every item's steps (its own, else the product's), the
 * state's charges included, and the state's territory table.
 */
function frozen(version: RateVersion, product: ProductCatalog): RateVersion {
  const filing = resolveFiling(product, version.state ?? null);
  const items: RateVersion['items'] = {};
  for (const item of product.items) items[item.id] = version.items[item.id] ?? { steps: item.rating.steps };
  return { ...version, items, ...(version.territories ?? filing.territories ? { territories: version.territories ?? filing.territories! } : {}) };
}

/** JSON with object keys sorted: stored records come back with their keys in another order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, entry) => (entry && typeof entry === 'object' && !Array.isArray(entry) ? Object.fromEntries(Object.entries(entry).sort(([a], [b]) => a.localeCompare(b))) : entry));
}

const productOf = (records: readonly CatalogRecord[]) => {
  const product = { lines: [], policyTypes: [], subLines: [], items: [], questions: [], forms: [], underwritingRules: [], rateVersions: [], filings: [] } as ProductCatalog;
  for (const record of records) {
    const list = ({ LINE: 'lines', POLICYTYPE: 'policyTypes', SUBLINE: 'subLines', ITEM: 'items', QUESTION: 'questions', FORM: 'forms', RATEVERSION: 'rateVersions', FILING: 'filings' } as Record<string, keyof ProductCatalog>)[record.kind];
    if (list) (product[list] as unknown[]).push(record);
  }
  product.items.push(...chargeItems(product));
  return product;
};

export interface PublishedVersion {
  version_id: string;
  effective_dates: { new_business: string; renewal: string };
  rate_versions: Array<{ id: string; name: string; state: string }>;
  published_by: string;
  published_at: string;
}

/** import_line_file: the line file checked, stored as a new product version and put in force by its dates; refused naming why, changing nothing. */
export async function importLineFile(principal: Principal, lineFile: unknown, now = new Date()): Promise<PublishedVersion> {
  let document: PackageDocument;
  try {
    document = (typeof lineFile === 'string' ? JSON.parse(lineFile) : lineFile) as PackageDocument;
  } catch {
    throw new BusinessRuleError('line_file: not JSON: give the package as an object of its files by their paths (line.json, items.json, states/FL.json, ...)');
  }
  const text = JSON.stringify(document);
  if (text.length > MAX_DOCUMENT_CHARS) throw new BusinessRuleError(`line_file: ${text.length} characters; a line file may have at most ${MAX_DOCUMENT_CHARS}`);
  const check = checkProductPackage(document);
  if (!check.package || !check.passed) throw new BusinessRuleError(problemsOf(check));
  const pkg = check.package;

  forgetCatalogCache();
  const current = await getProductCatalog();
  const incoming = packageRecords(pkg);
  const incomingProduct = productOf(incoming);
  const stored = new Map(current.rateVersions.map((version) => [version.id, version]));
  const versionId = randomUUID();
  const refusals: string[] = [];
  const newVersions: RateVersion[] = [];
  const rateRecords: CatalogRecord[] = [];
  for (const record of incoming.filter((candidate) => candidate.kind === 'RATEVERSION')) {
    const version = frozen(record as unknown as RateVersion, incomingProduct);
    const published = stored.get(version.id);
    if (published) {
      // Published rates never change: the same id must rate the same.
      const before = frozen(published, current);
      const changed = Object.entries(version.items).some(([itemId, { steps }]) => before.items[itemId] && canonical(before.items[itemId].steps) !== canonical(steps));
      if (changed || canonical(before.territories ?? null) !== canonical(version.territories ?? null)) {
        refusals.push(`line_file: rate version ${version.name} (${version.id}) is published already and rates differently in this file: give changed rates a new rate version with its own dates`);
      }
      continue;
    }
    const stamped = { ...version, productVersion: versionId };
    newVersions.push(stamped);
    rateRecords.push({ ...record, ...stamped });
  }
  if (refusals.length > 0) throw new BusinessRuleError(refusals);
  if (newVersions.length === 0) throw new BusinessRuleError('line_file: no new rate version: publishing changes rates through a new rate version (states/<state>.json rateVersions) with its effective dates');

  // Rate versions already published, and not frozen yet, keep what they rate by before the product's records change.
  const keep = current.rateVersions
    .filter((version) => !newVersions.some((candidate) => candidate.id === version.id))
    .map((version) => frozen(version, current))
    .map((version) => ({ ...version, pk: 'CATALOG', sk: `RATEVERSION#${version.id}`, kind: 'RATEVERSION', catalogVersion: version.productVersion ?? 'published' }) as CatalogRecord);

  const versions = await listProductVersions();
  const previous = versions.filter((version) => version.status === 'published').at(-1);
  const at = now.toISOString();
  const record: ProductVersionRecord = {
    versionId,
    lineId: pkg.line.lines[0].id,
    lineName: pkg.line.lines[0].name,
    document: text,
    effectiveDates: {
      newBusiness: newVersions.map((version) => version.newBusinessEffectiveDate).sort()[0],
      renewal: newVersions.map((version) => version.renewalEffectiveDate).sort()[0],
    },
    rateVersionIds: newVersions.map((version) => version.id),
    status: 'published',
    changeHistory: [{ action: 'published', by: principal.contactId, at }],
    ...(previous ? { previousVersionId: previous.versionId } : {}),
    publishedAt: at,
  };
  // The version record first (its own condition), then the catalog: every rate it adds is dated, so nothing rates by it before its dates.
  await putProductVersion(record, 'new');
  await writeCatalogRecords([...incoming.filter((candidate) => candidate.kind !== 'RATEVERSION'), ...keep, ...rateRecords].map((item) => ({ ...item, catalogVersion: versionId })));
  return publishedAnswer(record, newVersions);
}

function publishedAnswer(record: ProductVersionRecord, versions: readonly RateVersion[]): PublishedVersion {
  return {
    version_id: record.versionId,
    effective_dates: { new_business: record.effectiveDates.newBusiness, renewal: record.effectiveDates.renewal },
    rate_versions: versions.map((version) => ({ id: version.id, name: version.name, state: version.state ?? 'countrywide' })),
    published_by: record.changeHistory[0].by,
    published_at: record.publishedAt,
  };
}

/**
 * withdraw_line_file: a published version taken back before its first effective date: its
 * rate versions leave the catalog and the version before it is put back. Only the latest
 * published version can be withdrawn (a later one was built on it).
 */
export async function withdrawLineFile(principal: Principal, versionId: string, now = new Date()): Promise<{ version_id: string; status: 'withdrawn'; restored_version_id: string | null }> {
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

/** The line file of a version as published (the shipped product's package for its own effective date). */
export async function getExportLineFile(effectiveDateId: string): Promise<{ effective_date_id: string; data: string }> {
  const version = (await allVersions()).find((candidate) => candidate.id === effectiveDateId);
  if (!version) throw new NotFoundError(`Effective date ${effectiveDateId}`);
  if (version.record) return { effective_date_id: effectiveDateId, data: version.record.document };
  // The shipped product was seeded, not published: its package travels with the code.
  return { effective_date_id: effectiveDateId, data: JSON.stringify(referencePackageDocument()) };
}
