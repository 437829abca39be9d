/**
 * Keys of the signatures area (see docs/data-model.md, Signatures). A policy's signature
 * requests, the files they sign and the events already applied live in one partition per
 * policy, so one consistent Query answers retrieve_signature_requests and one transaction
 * applies an event together with its de-duplication record. Locators find that partition
 * from an id alone (a request id, a signature id behind an iframe_url, a file id).
 */
export type Key = { pk: string; sk: string };

const partition = (policyId: string) => `SIGNATURES#${policyId}`;

export const signatureRequestKey = (policyId: string, requestId: string): Key => ({ pk: partition(policyId), sk: `REQUEST#${requestId}` });
/** A file sent for signature: whether it is signed (esigned) and by which request. */
export const signableFileKey = (policyId: string, fileId: string): Key => ({ pk: partition(policyId), sk: `FILE#${fileId}` });
/** One applied vendor event, by its natural key (shared/signatures/model.ts signatureEventKey). */
export const appliedEventKey = (policyId: string, eventKey: string): Key => ({ pk: partition(policyId), sk: `EVENT#${eventKey}` });
/**
 * The one request of a policy awaiting signatures. Created in the request's own transaction
 * only when absent, so two requests asked at once cannot both be created; it is keyed by the
 * policy, not by the file, because two racing calls may each have rendered their own file.
 */
export const pendingRequestGuardKey = (policyId: string): Key => ({ pk: partition(policyId), sk: 'PENDING' });
/** From a request, signature or file id to the policy whose partition holds it. */
export const signatureLocatorKey = (id: string): Key => ({ pk: `SIGNLOC#${id}`, sk: 'SIGNLOC' });
/** The built-in vendor's own record of a request: who signs, who has signed. */
export const vendorRequestKey = (requestId: string): Key => ({ pk: `ESIGNVENDOR#${requestId}`, sk: 'REQUEST' });

/** Query parameters reading a policy's signature requests (not its files or events). */
export function policyRequestsQuery(tableName: string, policyId: string) {
  return {
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :kind)',
    ExpressionAttributeValues: { ':pk': partition(policyId), ':kind': 'REQUEST#' },
    ConsistentRead: true,
  };
}

/** Query parameters reading the files of a policy sent for signature. */
export function policyFilesQuery(tableName: string, policyId: string) {
  return {
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :kind)',
    ExpressionAttributeValues: { ':pk': partition(policyId), ':kind': 'FILE#' },
    ConsistentRead: true,
  };
}
