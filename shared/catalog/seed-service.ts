/** Writing the reference product's catalog into the table (the deploy-time seed, and tests). */
import { referenceCatalogRecords } from './reference-data.js';
import { listProductVersions, writeCatalogRecords } from './store.js';

/**
 * Writes every record of the reference catalog (idempotent: a record with the same key is
 * replaced); answers how many. Once a carrier has published a version of its own, the catalog
 * is theirs: a re-run seed (a redeploy, a bootstrap run again) writes nothing over it.
 */
export async function seedReferenceCatalog(): Promise<number> {
  if ((await listProductVersions()).some((version) => version.status === 'published')) return 0;
  const records = referenceCatalogRecords();
  await writeCatalogRecords(records);
  return records.length;
}
