/** Writing the reference product's catalog into the table (the deploy-time seed, and tests). */
import { referenceCatalogRecords } from './reference-data.js';
import { writeCatalogRecords } from './store.js';

/** Writes every record of the reference catalog (idempotent: a record with the same key is replaced); answers how many. */
export async function seedReferenceCatalog(): Promise<number> {
  const records = referenceCatalogRecords();
  await writeCatalogRecords(records);
  return records.length;
}
