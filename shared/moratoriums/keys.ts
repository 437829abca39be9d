/**
 * The moratoriums area's keys: the only code that knows them.
 *
 * - Every moratorium shares one partition (`MORATORIUMS`), sorted by id: a carrier declares a
 *   handful a season, and every check reads them all, strongly consistent, in one query.
 * - A moratorium's releases (one per policy) and refusals (one per refused call, sorted by
 *   when) share its own partition `MORATORIUM#<id>`.
 */
const ALL_PARTITION = 'MORATORIUMS';
const ownPartition = (moratoriumId: string) => `MORATORIUM#${moratoriumId}`;

export const moratoriumKey = (moratoriumId: string) => ({ pk: ALL_PARTITION, sk: `MORATORIUM#${moratoriumId}` });
export const allMoratoriumsQuery = () => ({
  KeyConditionExpression: 'pk = :pk AND begins_with(sk, :moratorium)',
  ExpressionAttributeValues: { ':pk': ALL_PARTITION, ':moratorium': 'MORATORIUM#' },
  ConsistentRead: true,
});

export const releaseKey = (moratoriumId: string, policyId: string) => ({ pk: ownPartition(moratoriumId), sk: `RELEASE#${policyId}` });
export const refusalKey = (moratoriumId: string, at: string, refusalId: string) => ({ pk: ownPartition(moratoriumId), sk: `REFUSAL#${at}#${refusalId}` });
/** A moratorium's releases and refusals, in one query. */
export const moratoriumRecordsQuery = (moratoriumId: string) => ({
  KeyConditionExpression: 'pk = :pk',
  ExpressionAttributeValues: { ':pk': ownPartition(moratoriumId) },
  ConsistentRead: true,
});
