/**
 * The catalog's stored records, declared once (shared/platform/records.ts): the carrier's product
 * configuration, all in one small partition so that one query reads it and a warm function caches
 * it; the published product versions (whole line files) apart, since every cold function reads the
 * catalog partition whole. Catalog records say their kind in `kind` (no `entity` attribute). Only
 * the area's stores import this module.
 */
import { defineRecord } from '../platform/records.js';
import type { ProductVersionRecord } from './store.js';

/** What a catalog record carries besides its keys: its kind, the version of the package part it came from, and its fields. */
export interface CatalogFields {
  kind: string;
  catalogVersion: string;
  [attribute: string]: unknown;
}

/**
 * One of the many records of a kind (`kind`, by its id): ROLE, BILLINGSCHEDULE, CANCELREASON, NONRENEWALREASON, RATEVERSION,
 * FILING (by state), UWRULES (by line) and the product's LINE, POLICYTYPE, SUBLINE, ITEM, QUESTION, FORM (the kinds below).
 */
export const catalogEntryRecord = /* @__PURE__ */ defineRecord<CatalogFields>({
  entity: 'CatalogEntry',
  entityAttribute: false,
  key: { pk: 'CATALOG', sk: '${kind}#${id}' },
});

/** The one record of a kind (`kind`): CARRIER, BILLINGRULES, CANCELLATIONRULES, RENEWALRULES, CLAIMSRULES (the kinds below). */
export const catalogSettingRecord = /* @__PURE__ */ defineRecord<CatalogFields>({
  entity: 'CatalogSetting',
  entityAttribute: false,
  key: { pk: 'CATALOG', sk: '${kind}' },
});

/**
 * A product version published by import_line_file (or the shipped one, written at bootstrap): the line file whole, its
 * effective dates and rate versions, status and change history, the version before it, the rate impact run it named.
 */
export const productVersionRecord = /* @__PURE__ */ defineRecord<ProductVersionRecord>({
  entity: 'PRODUCTVERSION',
  entityAttribute: 'kind',
  key: { pk: 'PRODUCTVERSION', sk: '${versionId}' },
});

/** Every declaration of the area, for docs/data-model.md. */
export const CATALOG_RECORDS = [catalogEntryRecord, catalogSettingRecord, productVersionRecord] as const;
