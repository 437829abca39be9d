/**
 * import_line_file (docs/products.md): the line file validated and its worksheets run in the
 * service (shared/products/check.ts), then stored as an immutable product version. Apart from
 * the reads and the withdrawal (service.ts), which never load the checks or the ZIP table.
 */
import { randomUUID } from 'node:crypto';
import { clock } from '../platform/clock.js';
import {
  catalogRecord,
  forgetCatalogCache,
  getCarrierSettings,
  getProductCatalog,
  listProductVersions,
  packageRecords,
  publishProductVersion,
  type CatalogRecord,
  type PackageDocument,
  type ProductVersionRecord,
  type RateVersion,
} from '../catalog/index.js';
import { BusinessRuleError } from '../platform/errors.js';
import type { Principal } from '../platform/principal.js';
import { checkProductPackage } from './check.js';
import { impactRunOfLineFile } from './impact.js';
import { problemsOf } from './problems.js';
import { canonical, frozen, MAX_DOCUMENT_CHARS, productOf } from './service.js';

export interface PublishedVersion {
  version_id: string;
  effective_dates: { new_business: string; renewal: string };
  rate_versions: Array<{ id: string; name: string; state: string }>;
  published_by: string;
  published_at: string;
  /** The rate impact run the carrier's setting required before publishing (RATE_IMPACT_REQUIRED_SETTING). */
  impact_run_id?: string;
}

/** The carrier setting (advancedSettings, off by default) that requires a stored impact run of a line file before it is published. */
export const RATE_IMPACT_REQUIRED_SETTING = 'rate-impact-required-before-publish';

export { problemsOf } from './problems.js';

/** import_line_file: the line file checked, stored as a new product version and put in force by its dates; refused naming why, changing nothing. */
export async function importLineFile(principal: Principal, lineFile: unknown, now = clock.now(), options: { impactRunId?: string } = {}): Promise<PublishedVersion> {
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
  const versions = await listProductVersions();
  // A rate version stamped by a publication that never recorded its version (it failed midway) is not published: this one finishes it.
  const recorded = new Set(versions.map((version) => version.versionId));
  const stored = new Map(current.rateVersions.filter((version) => !version.productVersion || recorded.has(version.productVersion)).map((version) => [version.id, version]));
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
  // A carrier may require the impact of new rates on its book to be looked at before they are filed.
  const settings = await getCarrierSettings();
  const impactRunId = settings.advancedSettings[RATE_IMPACT_REQUIRED_SETTING] === true ? await impactRunOfLineFile(options.impactRunId, document, newVersions.map((version) => version.name)) : undefined;

  // Rate versions already published, and not frozen yet, keep what they rate by before the product's records change.
  const keep = current.rateVersions
    .filter((version) => stored.has(version.id))
    .filter((version) => !newVersions.some((candidate) => candidate.id === version.id))
    .map((version) => frozen(version, current))
    .map((version) => catalogRecord('RATEVERSION', version.id, version.productVersion ?? 'published', version));

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
    ...(impactRunId ? { impactRunId } : {}),
    publishedAt: at,
  };
  // The catalog and the version record together (one transaction when it fits): a failure midway publishes nothing.
  await publishProductVersion(record, [...incoming.filter((candidate) => candidate.kind !== 'RATEVERSION'), ...keep, ...rateRecords].map((item) => ({ ...item, catalogVersion: versionId })));
  return publishedAnswer(record, newVersions);
}

function publishedAnswer(record: ProductVersionRecord, versions: readonly RateVersion[]): PublishedVersion {
  return {
    version_id: record.versionId,
    effective_dates: { new_business: record.effectiveDates.newBusiness, renewal: record.effectiveDates.renewal },
    rate_versions: versions.map((version) => ({ id: version.id, name: version.name, state: version.state ?? 'countrywide' })),
    published_by: record.changeHistory[0].by,
    published_at: record.publishedAt,
    ...(record.impactRunId ? { impact_run_id: record.impactRunId } : {}),
  };
}

