/**
 * The carrier's records (its settings and roles) and the reference product package, as
 * catalog records ready to be written at bootstrap. Code reads the catalog from storage,
 * never from these imports.
 */
import roles from './carrier/roles.json' with { type: 'json' };
import carrier from './carrier/carrier.json' with { type: 'json' };
import { catalogKey } from './keys.js';
import { packageRecords, type CatalogRecord } from './package-records.js';
import { readPackage } from './package-schema.js';
import { referencePackageDocument } from './reference-package.js';

export type { CatalogRecord } from './package-records.js';

/** Every catalog record of the carrier and the reference product. */
export function referenceCatalogRecords(): CatalogRecord[] {
  const { version: carrierVersion, ...settings } = carrier;
  const records: CatalogRecord[] = [{ ...catalogKey('CARRIER'), kind: 'CARRIER', catalogVersion: carrierVersion, ...settings }];
  for (const role of roles.roles) records.push({ ...catalogKey('ROLE', role.id), kind: 'ROLE', catalogVersion: roles.version, ...role });
  const { package: product, problems } = readPackage(referencePackageDocument());
  if (!product) throw new Error(`The reference product package is not valid: ${problems.map((problem) => `${problem.file} ${problem.path}: ${problem.problem}`).join('; ')}`);
  records.push(...packageRecords(product));
  return records;
}
