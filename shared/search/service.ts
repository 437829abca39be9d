/**
 * search and the listings of a contact's policies. Both read the search index only.
 *
 * search counts and orders its matches from small index entries, then reads the records of
 * the page it answers (docs/data-model.md, Search): a search string reads the token entries
 * each word begins (the caller's agencies' entries for an agent), a search without one the
 * listing entries of the statuses asked (or of the caller's agencies), which carry what the
 * filters read. A filter together with a search string (token entries carry none) or a sort
 * by another field than the number needs every match's record, read as before; a caller who
 * sees only its own policies (a Named Insured) reads those records.
 */
import { listPolicyLinks } from '../contacts/index.js';
import { toUsDate } from '../platform/dates.js';
import { reaches, type Principal } from '../platform/principal.js';
import { SEARCH_STATUSES, type SearchQuery, type SearchRecord } from './model.js';
import { numberOrderKey } from './keys.js';
import { pageOf } from '../platform/paging.js';
import { matchesWords, passesFilters, searchWords, sortRecords, toAnswerRecord } from './rules.js';
import { countPolicies, getSearchRecords, listedInNumberOrder, listedOfAgency, listedWithStatus, matchesByTokenPrefix, type IndexedMatch } from './store.js';

/** The records of the policies a contact is linked to (as agent, agency, named insured, ...). */
async function linkedRecords(contactId: string): Promise<SearchRecord[]> {
  const links = await listPolicyLinks(contactId);
  return getSearchRecords(links.map((link) => link.policyId));
}

const asMatch = (record: SearchRecord): IndexedMatch => ({ policyId: record.policyId, orderKey: numberOrderKey(record.policyNumber), listed: record });

/** The union of match lists, each policy once. */
function union(lists: IndexedMatch[][]): IndexedMatch[] {
  const all = new Map<string, IndexedMatch>();
  for (const list of lists) for (const match of list) if (!all.has(match.policyId)) all.set(match.policyId, match);
  return [...all.values()];
}

/** The matches of every list (a search's words must each begin some token of the policy). */
function intersection(lists: IndexedMatch[][]): IndexedMatch[] {
  const [first, ...others] = [...lists].sort((a, b) => a.length - b.length);
  const sets = others.map((list) => new Set(list.map((match) => match.policyId)));
  return (first ?? []).filter((match) => sets.every((set) => set.has(match.policyId)));
}

/**
 * The policies within the caller's reach that match the words (every policy within reach
 * without words), from index entries; without words, the filters apply to the listing
 * entries (which are keyed by status and carry the other filtered facts). Records of the
 * caller's own links are read when the caller may see policies outside its agencies.
 */
async function indexedMatches(principal: Principal, words: string[], query: SearchQuery): Promise<IndexedMatch[]> {
  const matches = await matchesInReach(principal, words, query.statuses);
  if (words.length) return matches;
  return matches.filter((match) => match.listed !== undefined && passesFilters(match.listed as SearchRecord, query));
}

async function matchesInReach(principal: Principal, words: string[], statuses: readonly string[]): Promise<IndexedMatch[]> {
  if (principal.scope === 'all') {
    if (words.length) return intersection(await Promise.all(words.map((word) => matchesByTokenPrefix(word))));
    return union(await Promise.all((statuses.length ? statuses : SEARCH_STATUSES).map(listedWithStatus)));
  }
  const ownRecords = linkedRecords(principal.contactId).then((records) => records.filter((record) => reaches(principal, record) && matchesWords(record.tokens, words)).map(asMatch));
  const agencies = principal.scope === 'agency' ? principal.agencyIds : [];
  const ofAgencies = words.length
    ? agencies.map(async (agencyId) => intersection(await Promise.all(words.map((word) => matchesByTokenPrefix(word, agencyId)))))
    : agencies.map(listedOfAgency);
  return union(await Promise.all([ownRecords, ...ofAgencies]));
}

const filtered = (query: SearchQuery) => query.statuses.length + query.policyTypes.length + query.revisionStates.length + query.reviewStates.length > 0;

/** Whether the index entries alone can order, count and page the answer: token entries carry no filtered facts, listing entries do. */
function servedByIndex(query: SearchQuery, words: string[]): boolean {
  return query.sort.field === 'policyNumber' && !(words.length > 0 && filtered(query));
}

/** An Administrator's listing of every policy by number: one counter read and one page of the index, whatever the book. */
async function everyPolicyPage(query: SearchQuery) {
  const total = await countPolicies();
  const ids = await listedInNumberOrder((query.page - 1) * query.pageSize, query.pageSize, query.sort.order);
  const records = new Map((await getSearchRecords(ids)).map((record) => [record.policyId, record]));
  const answered = ids.map((id) => records.get(id)).filter((record): record is SearchRecord => !!record);
  return { activePage: query.page, maxPages: Math.ceil(total / query.pageSize), records: answered.map(toAnswerRecord) };
}

export async function searchPolicies(principal: Principal, query: SearchQuery) {
  const words = searchWords(query.searchString);
  if (principal.scope === 'all' && !words.length && !filtered(query) && servedByIndex(query, words)) return everyPolicyPage(query);
  const matches = await indexedMatches(principal, words, query);
  if (!servedByIndex(query, words)) {
    // Every match's record: filters and sorts the entries do not carry (docs/data-model.md, Search, what they cost).
    const records = (await getSearchRecords(matches.map((match) => match.policyId))).filter((record) => reaches(principal, record) && passesFilters(record, query));
    const page = pageOf(sortRecords(records, query.sort), query.page, query.pageSize);
    return { ...page, records: page.records.map(toAnswerRecord) };
  }
  const direction = query.sort.order === 'desc' ? -1 : 1;
  const ordered = matches.sort((a, b) => direction * (compareBytes(a.orderKey, b.orderKey) || compareBytes(a.policyId, b.policyId)));
  const page = pageOf(ordered, query.page, query.pageSize);
  const records = new Map((await getSearchRecords(page.records.map((match) => match.policyId))).map((record) => [record.policyId, record]));
  // The index entries were within reach by how they were read; the records are checked again all the same.
  const answered = page.records.map((match) => records.get(match.policyId)).filter((record): record is SearchRecord => !!record && reaches(principal, record));
  return { ...page, records: answered.map(toAnswerRecord) };
}

/** Orders as DynamoDB orders sort keys (code units of these ASCII keys). */
const compareBytes = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

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
    ...(record.cancelPendingDate ? { cancel_pending_date: record.cancelPendingDate } : {}),
    ...(record.rewrittenTo ? { rewritten_to: { policy_id: record.rewrittenTo.policyId, policy_number: record.rewrittenTo.policyNumber } } : {}),
    ...(record.rewrittenFrom ? { rewritten_from: { policy_id: record.rewrittenFrom.policyId, policy_number: record.rewrittenFrom.policyNumber } } : {}),
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

const POLICY_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The policies named by id or number (the vendor's `policies`), within the caller's reach, in order of date added; unknown ones pass unlisted. */
async function namedPolicies(principal: Principal, named: readonly string[]): Promise<SearchRecord[]> {
  const ids = named.filter((entry) => POLICY_ID.test(entry));
  const numbers = named.filter((entry) => !POLICY_ID.test(entry));
  // A number is found through the token index (as search finds it), then matched exactly.
  const byNumber = await Promise.all(numbers.map(async (number) => (await matchesByTokenPrefix(searchWords(number)[0] ?? number)).map((match) => match.policyId)));
  const records = await getSearchRecords([...new Set([...ids.map((entry) => entry.toLowerCase()), ...byNumber.flat()])]);
  const wantedNumbers = new Set(numbers);
  const wantedIds = new Set(ids.map((entry) => entry.toLowerCase()));
  return records
    .filter((record) => (wantedIds.has(record.policyId) || wantedNumbers.has(record.policyNumber)) && reaches(principal, record))
    .sort((a, b) => a.dateAdded.localeCompare(b.dateAdded) || a.policyNumber.localeCompare(b.policyNumber, 'en', { numeric: true }));
}

/**
 * get_policies_with_active_current_revision: policies in force, whose current revision is
 * committed: a contact's, or those named in `policies`, or the contact's among those named.
 */
export async function getPoliciesInForce(principal: Principal, query: Omit<ContactPoliciesQuery, 'contactId'> & { contactId?: string; policies?: readonly string[] }) {
  const named = query.policies ? await namedPolicies(principal, query.policies) : undefined;
  const ofContact = query.contactId ? await contactPolicies(principal, { ...query, contactId: query.contactId }) : undefined;
  const candidates = named && ofContact ? ofContact.filter((record) => named.some((listed) => listed.policyId === record.policyId)) : (ofContact ?? named ?? []);
  return candidates
    .filter((record) => (record.status === 'Active' || (query.includeCanceled === true && record.status === CANCELLED)) && record.revisionState === 'committed')
    .map((record) => listedPolicy(record, query.includePhoto));
}
