/**
 * Keys of the catalog: the carrier's product configuration, all in one small
 * partition so that one query reads it and a warm function caches it.
 */
export const CATALOG_PARTITION = 'CATALOG';

export type CatalogKind = 'CARRIER' | 'ROLE' | 'BILLINGSCHEDULE' | 'CANCELREASON' | (string & {});

export function catalogKey(kind: CatalogKind, id?: string): { pk: string; sk: string } {
  return { pk: CATALOG_PARTITION, sk: id === undefined ? kind : `${kind}#${id}` };
}

/** Published product versions (whole line files) live apart from the catalog partition, which every cold function reads whole. */
export const PRODUCT_VERSION_PARTITION = 'PRODUCTVERSION';

export function productVersionKey(versionId: string): { pk: string; sk: string } {
  return { pk: PRODUCT_VERSION_PARTITION, sk: versionId };
}

export function catalogQuery(kind: CatalogKind) {
  return {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': CATALOG_PARTITION, ':prefix': `${kind}#` },
  };
}
