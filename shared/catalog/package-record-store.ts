/**
 * A product package as catalog records: one record per entry, keyed by its fixed id, as the
 * service stores and reads them (store.ts, model.ts's productFromRecords). Pure.
 */
import referenceClaimsRules from './reference/claims-rules.json' with { type: 'json' };
import type { CatalogKind, ClaimsRules } from './model.js';
import type { ProductPackage } from './package-schema.js';
import { catalogEntryRecord, catalogSettingRecord } from './records.js';

export interface CatalogRecord {
  pk: string;
  sk: string;
  kind: string;
  catalogVersion: string;
  [attribute: string]: unknown;
}

/** The key of the catalog record of `kind` (and `id`, for a kind with many). */
export const catalogKey = (kind: CatalogKind, id?: string) => (id === undefined ? catalogSettingRecord.key({ kind }) : catalogEntryRecord.key({ kind, id }));

/** A catalog record of `kind` (and `id`, for a kind with many), keyed as the store reads it by the kind and id given. */
export function catalogRecord(kind: CatalogKind, id: string | undefined, catalogVersion: string, fields: object): CatalogRecord {
  const record = { kind, catalogVersion, ...fields };
  return (id === undefined ? catalogSettingRecord.item(record, { kind }) : catalogEntryRecord.item(record, { kind, id })) as CatalogRecord;
}

function withoutVersion<T extends { version?: string }>(data: T): Omit<T, 'version'> {
  const { version: _version, ...rest } = data;
  return rest;
}

/** Every record of the package: billing, cancellation and renewal rules, the product and its state filings. */
export function packageRecords(product: ProductPackage): CatalogRecord[] {
  const records: CatalogRecord[] = [];
  const add = (kind: string, version: string, entries: ReadonlyArray<{ id: string }>) => {
    for (const entry of entries) records.push(catalogEntryRecord.item({ ...entry, kind, catalogVersion: version }, { kind, id: entry.id }) as CatalogRecord);
  };
  const { billingSchedules: schedules, ...billingRules } = product.billing;
  add('BILLINGSCHEDULE', product.billing.version, schedules);
  records.push(catalogRecord('BILLINGRULES', undefined, product.billing.version, withoutVersion(billingRules)));
  const { cancelReasons: reasons, ...cancellationRules } = product.cancellation;
  add('CANCELREASON', product.cancellation.version, reasons);
  records.push(catalogRecord('CANCELLATIONRULES', undefined, product.cancellation.version, withoutVersion(cancellationRules)));
  const { nonRenewalReasons, ...renewalSettings } = product.renewal;
  add('NONRENEWALREASON', product.renewal.version, nonRenewalReasons);
  records.push(catalogRecord('RENEWALRULES', undefined, product.renewal.version, withoutVersion(renewalSettings)));
  // A package without claims rules of its own publishes the shipped ones: every catalog has claims rules, so no claims function bundles a fallback.
  const claims = product.claims ?? (referenceClaimsRules as ClaimsRules);
  records.push(catalogRecord('CLAIMSRULES', undefined, claims.version, withoutVersion(claims)));

  add('LINE', product.line.version, product.line.lines);
  add('POLICYTYPE', product.line.version, product.line.policyTypes);
  add('SUBLINE', product.subLines.version, product.subLines.subLines);
  add('ITEM', product.items.version, product.items.items);
  add('QUESTION', product.questions.version, product.questions.questions);
  add('FORM', product.forms.version, product.forms.forms);
  for (const line of product.line.lines) {
    records.push(catalogRecord('UWRULES', line.id, product.line.version, { lineId: line.id, rules: product.line.underwritingRules }));
  }
  for (const { file: _file, version, rateVersions, ...filing } of product.filings) {
    const catalogVersion = version ?? product.line.version;
    records.push(catalogRecord('FILING', filing.state, catalogVersion, filing));
    // Countrywide versions carry no state, as the versions of a catalog before filings did.
    const state = filing.state === 'countrywide' ? {} : { state: filing.state };
    add('RATEVERSION', catalogVersion, (rateVersions ?? []).map((rateVersion) => ({ ...rateVersion, ...state })));
  }
  return records;
}
