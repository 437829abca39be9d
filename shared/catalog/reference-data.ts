/**
 * The carrier's records (its settings and roles) and the reference product package, as
 * catalog records ready to be written at bootstrap. Code reads the catalog from storage,
 * never from these imports.
 */
import roles from './carrier/roles.json' with { type: 'json' };
import carrier from './carrier/carrier.json' with { type: 'json' };
import { catalogRecord, packageRecords, type CatalogRecord } from './package-record-store.js';
import { readPackage } from './package-schema.js';
import { referencePackageDocument } from './reference-package.js';

export type { CatalogRecord } from './package-record-store.js';

/** Every catalog record of the carrier and the reference product. */
export function referenceCatalogRecords(): CatalogRecord[] {
  const { version: carrierVersion, ...settings } = carrier;
  const records: CatalogRecord[] = [catalogRecord('CARRIER', undefined, carrierVersion, settings)];
  for (const role of roles.roles) records.push(catalogRecord('ROLE', role.id, roles.version, role));
  const { package: product, problems } = readPackage(referencePackageDocument());
  if (!product) throw new Error(`The reference product package is not valid: ${problems.map((problem) => `${problem.file} ${problem.path}: ${problem.problem}`).join('; ')}`);
  records.push(...packageRecords(product));
  return records;
}
