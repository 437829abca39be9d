/** Adding a rate version to the catalog of a running test service, as a carrier would publish one. */
import { randomUUID } from 'node:crypto';
import type { ItemDefinition, RateVersion } from '../../shared/catalog/index.js';
import { catalogKey } from '../../shared/catalog/package-record-store.js';
import { getCatalogRecord, writeCatalogRecords } from '../../shared/catalog/store.js';
import { ITEM } from './reference-product.js';

/** The Dwelling's rating steps with its base rate per thousand replaced (e.g. 3.50 → 3.80). */
export async function dwellingStepsAtBaseRate(rate: string): Promise<RateVersion['items']> {
  const dwelling = (await getCatalogRecord<ItemDefinition>('ITEM', ITEM.DWELLING))!;
  const steps = dwelling.rating.steps.map((step) => (step.name === 'Base Rate' ? { ...step, rate } : step));
  return { [ITEM.DWELLING]: { steps } };
}

/** Publishes a rate version in the stored catalog; answers it. */
export async function addRateVersion(version: Omit<RateVersion, 'id'> & { id?: string }): Promise<RateVersion> {
  const stored: RateVersion = { id: version.id ?? randomUUID(), ...version } as RateVersion;
  await writeCatalogRecords([{ ...catalogKey('RATEVERSION', stored.id), kind: 'RATEVERSION', catalogVersion: 'test', ...stored }]);
  return stored;
}
