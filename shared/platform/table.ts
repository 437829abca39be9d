/**
 * The single table's physical shape: key attributes, global secondary indexes
 * and the TTL attribute. The CDK stack and the local bootstrap both create the
 * table from this description; stores build their keys on these attribute names.
 * What each entity puts in them is written down in docs/data-model.md.
 */
export const TABLE_KEYS = { partition: 'pk', sort: 'sk' } as const;

export const TTL_ATTRIBUTE = 'expiresAt';

export const GLOBAL_INDEXES = [
  { indexName: 'gsi1', partition: 'gsi1pk', sort: 'gsi1sk' },
  { indexName: 'gsi2', partition: 'gsi2pk', sort: 'gsi2sk' },
  { indexName: 'gsi3', partition: 'gsi3pk', sort: 'gsi3sk' },
] as const;

export type GlobalIndexName = (typeof GLOBAL_INDEXES)[number]['indexName'];
