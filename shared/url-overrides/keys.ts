/**
 * Key builders of the URL overrides (spec 2.4). Overrides are few and configured by an
 * administrator, so they share one partition: retrieveURLOverrides is one Query.
 */
export const URL_OVERRIDES_PARTITION = 'URLOVERRIDES';

export const urlOverrideKey = (url: string) => ({ pk: URL_OVERRIDES_PARTITION, sk: `URL#${url}` });

export const urlOverridesQuery = () => ({
  KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
  ExpressionAttributeValues: { ':pk': URL_OVERRIDES_PARTITION, ':prefix': 'URL#' },
});
