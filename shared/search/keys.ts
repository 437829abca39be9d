/**
 * Keys of the search area (docs/data-model.md, Search). Everything indexed for a policy
 * sits in its own partition `PSEARCH#<policyId>`: one record (projected into gsi2 by
 * status and gsi3 by agency, for listings without a search string) and one token item
 * per word or number form (projected into gsi1, partitioned by the token's first
 * character, sorted by the token: a prefix search is one Query of its matches).
 */
export type Key = { pk: string; sk: string };

export const searchRecordKey = (policyId: string): Key => ({ pk: `PSEARCH#${policyId}`, sk: 'RECORD' });
export const searchTokenKey = (policyId: string, token: string): Key => ({ pk: `PSEARCH#${policyId}`, sk: `TOKEN#${token}` });

/** The gsi1 partition of a token: its first character, so that one letter's words do not share a partition with all others. */
export const tokenPartition = (token: string) => `PTOKEN#${[...token][0] ?? ''}`;
export const tokenIndexKeys = (policyId: string, token: string) => ({ gsi1pk: tokenPartition(token), gsi1sk: `${token}#${policyId}` });

export const statusPartition = (status: string) => `PSTATUS#${status}`;
export const agencyPartition = (agencyId: string) => `PAGENCY#${agencyId}`;

/** The listing keys of a record: by status (gsi2) and, when it has one, by agency (gsi3); sorted by number. */
export function recordIndexKeys(record: { policyId: string; policyNumber: string; status: string; agencyId: string | null }) {
  const sort = `${record.policyNumber}#${record.policyId}`;
  return {
    gsi2pk: statusPartition(record.status),
    gsi2sk: sort,
    ...(record.agencyId ? { gsi3pk: agencyPartition(record.agencyId), gsi3sk: sort } : {}),
  };
}

/** Query parameters for the token items beginning with a search word (gsi1; eventually consistent, as every GSI read). */
export function tokenPrefixQuery(tableName: string, word: string) {
  return {
    TableName: tableName,
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
    ExpressionAttributeValues: { ':pk': tokenPartition(word), ':prefix': word },
    ProjectionExpression: 'policyId',
  };
}

/** Query parameters for every record of one status (gsi2). */
export function statusListingQuery(tableName: string, status: string) {
  return {
    TableName: tableName,
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :pk',
    ExpressionAttributeValues: { ':pk': statusPartition(status) },
  };
}

/** Query parameters for every record of one agency (gsi3). */
export function agencyListingQuery(tableName: string, agencyId: string) {
  return {
    TableName: tableName,
    IndexName: 'gsi3',
    KeyConditionExpression: 'gsi3pk = :pk',
    ExpressionAttributeValues: { ':pk': agencyPartition(agencyId) },
  };
}
