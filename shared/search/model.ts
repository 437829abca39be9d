/**
 * The search area's types: the index of policies that `search` and the listings read.
 * A policy's searchable facts are copied into one small record per policy, plus one
 * token item per word of its named insureds' names and per form of its number, so that
 * a search reads what matches and never the table. Only plain data: the policies area
 * hands these to the search area's write builders, and no business area is imported here.
 */

export const SEARCH_STATUSES = ['Active', 'Unsubmitted', 'Submitted', 'Rejected', 'Cancelled', 'Expired'] as const;
export type SearchStatus = (typeof SEARCH_STATUSES)[number];

export const REVIEW_STATES = ['NOT_STARTED', 'READY_TO_APPLY', 'PENDING_AGENT_CHANGES', 'PENDING_UNDERWRITER_REVIEW', 'APPROVED_BY_UW'] as const;

/** What the policies area knows of a policy when it writes it: the source of its index items. */
export interface SearchablePolicy {
  policyId: string;
  policyNumber: string;
  status: string;
  revisionState: string;
  reviewState: string;
  policyTypeId: string;
  policyTypeName: string;
  flag: string;
  /** `YYYY-MM-DD` */
  effectiveDate: string;
  expirationDate: string;
  /** When the policy was created (ISO instant): get_policies filters on its day and sorts on it. */
  dateAdded: string;
  namedInsuredNames: string[];
  agencyId: string | null;
  contactIds: string[];
  activeRevisionId: string;
  /** The date a pending cancellation takes effect (the term's, copied with the term's change); absent or null when none is pending. */
  cancelPendingDate?: string | null;
  /** A rewrite (rewrite_policy): the policy and term this one became, or came from; a number search finds both sides. */
  rewrittenTo?: RewriteSide;
  rewrittenFrom?: RewriteSide;
}

/** One side of a rewrite, as a search record names it. */
export interface RewriteSide {
  policyId: string;
  policyNumber: string;
  termId: string;
}

/** The one index record of a policy, as stored (without its keys). */
export interface SearchRecord extends SearchablePolicy {
  entity: 'PolicySearchRecord';
  /** Every token item written for the policy, so that they can be removed or replaced. */
  tokens: string[];
}

/** A search request after validation. */
export interface SearchQuery {
  searchString: string;
  statuses: string[];
  policyTypes: string[];
  revisionStates: string[];
  reviewStates: string[];
  sort: { field: SortField; order: 'asc' | 'desc' };
  page: number;
  pageSize: number;
}

export const SORT_FIELDS = ['status', 'namedInsured', 'expirationDate', 'effectiveDate', 'policyId', 'flag', 'policyType', 'policyNumber', 'reviewState'] as const;
export type SortField = (typeof SORT_FIELDS)[number];

/** One record of a search answer (spec 4.5). */
export interface SearchAnswerRecord {
  status: string;
  namedInsured: string;
  expirationDate: string | null;
  effectiveDate: string | null;
  policyId: string;
  flag: string;
  policyType: string;
  policyNumber: string;
  reviewState: string;
  /** Beyond the interface: the date a pending cancellation takes effect (MM/DD/YYYY), only while one is pending. */
  cancelPendingDate?: string;
  /** Beyond the interface: a rewritten policy names what it became, a rewrite's policy what it came from. */
  rewrittenTo?: { policyId: string; policyNumber: string };
  rewrittenFrom?: { policyId: string; policyNumber: string };
}
