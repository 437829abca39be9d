/**
 * search and the listings of a contact's policies. Both read the search index only:
 * a search string reads the token items its most selective word begins (its matches),
 * a search without one reads the listing of each status asked (or the caller's
 * agencies, or its own policies); records are then checked against the caller's reach,
 * the other words and the filters, sorted and paged in memory.
 */
import { listPolicyLinks } from '../contacts/store.js';
import { toUsDate } from '../platform/dates.js';
import { reaches, type Principal } from '../platform/principal.js';
import { SEARCH_STATUSES, type SearchQuery, type SearchRecord } from './model.js';
import { pageOf } from '../platform/paging.js';
import { matchesWords, mostSelectiveWord, passesFilters, searchWords, sortRecords, toAnswerRecord } from './rules.js';
import { getSearchRecords, policyIdsByTokenPrefix, recordsOfAgency, recordsWithStatus } from './store.js';

const distinct = (records: SearchRecord[]) => [...new Map(records.map((record) => [record.policyId, record])).values()];

/** The records of the policies a contact is linked to (as agent, agency, named insured, ...). */
async function linkedRecords(contactId: string): Promise<SearchRecord[]> {
  const links = await listPolicyLinks(contactId);
  return getSearchRecords(links.map((link) => link.policyId));
}

/** What a search without a search string reads: only listings the caller could see anything in. */
async function listingCandidates(principal: Principal, statuses: readonly string[]): Promise<SearchRecord[]> {
  if (principal.scope === 'all') {
    const wanted = statuses.length ? statuses : SEARCH_STATUSES;
    return (await Promise.all(wanted.map(recordsWithStatus))).flat();
  }
  const own = linkedRecords(principal.contactId);
  const agencies = principal.scope === 'agency' ? principal.agencyIds.map(recordsOfAgency) : [];
  return distinct((await Promise.all([own, ...agencies])).flat());
}

export async function searchPolicies(principal: Principal, query: SearchQuery) {
  const words = searchWords(query.searchString);
  const queried = mostSelectiveWord(words);
  const candidates = queried ? await getSearchRecords(await policyIdsByTokenPrefix(queried)) : await listingCandidates(principal, query.statuses);
  const matched = candidates.filter((record) => reaches(principal, record) && matchesWords(record.tokens, words) && passesFilters(record, query));
  const page = pageOf(sortRecords(matched, query.sort), query.page, query.pageSize);
  return { ...page, records: page.records.map(toAnswerRecord) };
}

// ---------------------------------------------------------------- a contact's policies

export interface ContactPoliciesQuery {
  contactId: string;
  fromDate?: string;
  toDate?: string;
  order: 'asc' | 'desc';
  includePhoto: boolean;
  /** Vendor parameter: whether cancelled policies are listed (get_policies: yes unless false; the in-force list: no unless true). */
  includeCanceled?: boolean;
}

const CANCELLED = 'Cancelled';

/** One policy of a listing: the search record's facts in the snake_case of the v2 policies operations. */
function listedPolicy(record: SearchRecord, includePhoto: boolean) {
  return {
    policy_id: record.policyId,
    policy_number: record.policyNumber,
    date_added: toUsDate(record.dateAdded.slice(0, 10)),
    status: record.status,
    named_insured: record.namedInsuredNames.join(', '),
    effective_date: record.effectiveDate,
    expiration_date: record.expirationDate,
    policy_type: record.policyTypeName,
    policy_type_id: record.policyTypeId,
    flag: record.flag,
    review_state: record.reviewState,
    revision_state: record.revisionState,
    active_revision_id: record.activeRevisionId,
    agency_id: record.agencyId,
    // No photos are kept for policies: the key is there for clients that ask, and empty.
    ...(includePhoto ? { policy_photo: null } : {}),
  };
}

export type ListedPolicy = ReturnType<typeof listedPolicy>;

const dayAdded = (record: SearchRecord) => record.dateAdded.slice(0, 10);

/** A contact's policies within the caller's reach, added strictly between the dates, in order of date added. */
async function contactPolicies(principal: Principal, query: ContactPoliciesQuery): Promise<SearchRecord[]> {
  const records = (await linkedRecords(query.contactId)).filter(
    (record) => reaches(principal, record) && (!query.fromDate || dayAdded(record) > query.fromDate) && (!query.toDate || dayAdded(record) < query.toDate),
  );
  const direction = query.order === 'desc' ? -1 : 1;
  return records.sort((a, b) => direction * (a.dateAdded.localeCompare(b.dateAdded) || a.policyNumber.localeCompare(b.policyNumber, 'en', { numeric: true })));
}

/** get_policies: one page of a contact's policies, with the request's echo (spec 4.5). */
export async function getPolicies(principal: Principal, query: ContactPoliciesQuery & { pageNumber: number; pageSize: number }) {
  const records = (await contactPolicies(principal, query)).filter((record) => query.includeCanceled !== false || record.status !== CANCELLED);
  const page = pageOf(records, query.pageNumber, query.pageSize);
  return {
    contact_id: query.contactId,
    include_policy_photo: query.includePhoto,
    from_date: query.fromDate ?? null,
    to_date: query.toDate ?? null,
    sorting_order: query.order,
    page_number: query.pageNumber,
    page_size: query.pageSize,
    total_pages: page.maxPages,
    total_size: records.length,
    policies: page.records.map((record) => listedPolicy(record, query.includePhoto)),
  };
}

/** get_policies_by_contact_id_db_query: every policy of a contact, as get_policies lists them, unpaged. */
export async function getPoliciesByContact(principal: Principal, query: ContactPoliciesQuery) {
  return (await contactPolicies(principal, query)).map((record) => listedPolicy(record, query.includePhoto));
}

/** get_policies_with_active_current_revision: a contact's policies in force, whose current revision is committed. */
export async function getPoliciesInForce(principal: Principal, query: ContactPoliciesQuery) {
  return (await contactPolicies(principal, query))
    .filter((record) => (record.status === 'Active' || (query.includeCanceled === true && record.status === CANCELLED)) && record.revisionState === 'committed')
    .map((record) => listedPolicy(record, query.includePhoto));
}
