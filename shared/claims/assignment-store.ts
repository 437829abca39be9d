/** What assigning a claim reads of the area's records: an adjuster's open claims, counted from his caseload listing. */
import { queryPages } from '../platform/dynamo.js';
import { claimListingRecord } from './records.js';

/** How many claims not closed are assigned to the contact: a COUNT of his caseload listing (its open claims alone, never his closed ones). */
export async function openClaimsOf(adjusterContactId: string): Promise<number> {
  let count = 0;
  for await (const page of queryPages({ ...claimListingRecord.query({ dimension: 'caseload', value: adjusterContactId }, { consistent: true }), Select: 'COUNT' })) count += page.count;
  return count;
}
