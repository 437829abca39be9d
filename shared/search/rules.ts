/**
 * How policies are searched, as plain functions: which tokens a policy is found by,
 * how a search string is read, whether a record matches, and how matches are filtered,
 * sorted and paged. No I/O; the store reads the token items these name.
 */
import { toUsDate } from '../platform/dates.js';
import { SORT_FIELDS, type SearchAnswerRecord, type SearchQuery, type SearchRecord, type SearchablePolicy, type SortField } from './model.js';

/**
 * A string whose byte order is the order of policy numbers as people read them: letters
 * folded to lower case, and every run of digits compared as a number (`10-2026-9` before
 * `10-2026-10`): leading zeros dropped and the run prefixed by its length (one character
 * from `1`, so runs sort below letters and above punctuation, as a collator puts them).
 */
export function numberOrderKey(policyNumber: string): string {
  return policyNumber
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/#/g, '')
    .replace(/\d+/g, (run) => {
      const digits = run.replace(/^0+(?=\d)/, '');
      return String.fromCharCode(0x30 + Math.min(digits.length, 0x4e)) + digits;
    });
}

/** Words of each named insured indexed (a policy's index items fit one transaction with the policy). */
export const MAX_WORDS_PER_NAME = 8;
/** Named insureds whose names are indexed. */
export const MAX_INDEXED_NAMES = 4;
/** At most this many token items per policy: the names' words and the number's forms. */
export const MAX_TOKENS = MAX_WORDS_PER_NAME * MAX_INDEXED_NAMES + 8;

function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    // "O'Brien" is found as "obrien", not as "o" and "brien".
    .replace(/['\u2019`]/g, '');
}

/** The distinct words of a name, folded (case, accents, apostrophes). */
export function nameWords(name: string): string[] {
  return [...new Set(fold(name).split(/[^\p{L}\p{N}]+/u).filter((word) => word.length > 0))];
}

/**
 * The forms a policy number is found by: the number itself, each tail after a dash
 * (`2026-7` of `10-2026-7`), and the digits alone of each (`1020267`, `20267`).
 * A search matches one by prefix.
 */
export function numberForms(policyNumber: string): string[] {
  const number = fold(policyNumber).replace(/\s+/g, '');
  const parts = number.split('-').filter((part) => part.length > 0);
  const tails = parts.map((_, index) => parts.slice(index).join('-'));
  const digits = tails.map((tail) => tail.replace(/\D/g, '')).filter((form) => form.length > 0);
  return [...new Set([number, ...tails, ...digits])].filter((form) => form.length > 0);
}

/** Every token of a policy, names first; bounded by MAX_TOKENS. */
export function policyTokens(policy: Pick<SearchablePolicy, 'policyNumber' | 'namedInsuredNames'>): string[] {
  const words = policy.namedInsuredNames.slice(0, MAX_INDEXED_NAMES).flatMap((name) => nameWords(name).slice(0, MAX_WORDS_PER_NAME));
  return [...new Set([...words, ...numberForms(policy.policyNumber)])].slice(0, MAX_TOKENS);
}

/**
 * The tokens that need an item of their own in the token index: a token that begins a longer
 * token of the same policy is left out, since any search word that begins it begins the longer
 * one too, and the prefix query finds the policy by that (`2` of `10-2026-2` is found by `2026-2`).
 * The record keeps every token: matchesWords reads them all.
 */
export function indexedTokens(tokens: readonly string[]): string[] {
  return tokens.filter((token) => !tokens.some((other) => other !== token && other.startsWith(token)));
}

/**
 * The words of a search string. A word holding a digit is read as a number fragment
 * (dashes kept: `2026-7`); any other is split like a name (`Mary-Jane` is two words).
 */
export function searchWords(searchString: string): string[] {
  const words = fold(searchString).trim().split(/\s+/).filter((word) => word.length > 0);
  const out = words.flatMap((word) => (/\d/.test(word) ? [word.replace(/[^\p{L}\p{N}-]+/gu, '').replace(/^-+|-+$/g, '')] : nameWords(word)));
  return [...new Set(out.filter((word) => word.length > 0))];
}

/** The search word the token index is queried by: the longest is likely the most selective. */
export function mostSelectiveWord(words: readonly string[]): string | undefined {
  return [...words].sort((a, b) => b.length - a.length)[0];
}

/** Whether every word of the search begins some token of the policy. */
export function matchesWords(tokens: readonly string[], words: readonly string[]): boolean {
  return words.every((wanted) => tokens.some((token) => token.startsWith(wanted)));
}

/** `policy_number` and `policyNumber` name the same field; so do `effective_date` and `effectiveDate`. */
export function sortFieldOf(name: string): SortField | undefined {
  const wanted = name.replace(/_/g, '').toLowerCase();
  return SORT_FIELDS.find((field) => field.toLowerCase() === wanted);
}

const lower = (values: readonly string[]) => new Set(values.map((value) => value.toLowerCase()));

/** Whether a record passes the search's filters (an empty filter passes everything). */
export function passesFilters(record: SearchRecord, query: Pick<SearchQuery, 'statuses' | 'policyTypes' | 'revisionStates' | 'reviewStates'>): boolean {
  const statuses = lower(query.statuses);
  const types = lower(query.policyTypes);
  const revisionStates = lower(query.revisionStates);
  const reviewStates = lower(query.reviewStates);
  if (statuses.size && !statuses.has(record.status.toLowerCase())) return false;
  if (types.size && !types.has(record.policyTypeName.toLowerCase()) && !types.has(record.policyTypeId.toLowerCase())) return false;
  if (revisionStates.size && !revisionStates.has(record.revisionState.toLowerCase())) return false;
  if (reviewStates.size && !reviewStates.has(record.reviewState.toLowerCase())) return false;
  return true;
}

export function toAnswerRecord(record: SearchRecord): SearchAnswerRecord {
  return {
    status: record.status,
    namedInsured: record.namedInsuredNames.join(', '),
    expirationDate: toUsDate(record.expirationDate),
    effectiveDate: toUsDate(record.effectiveDate),
    policyId: record.policyId,
    flag: record.flag,
    policyType: record.policyTypeName,
    policyNumber: record.policyNumber,
    reviewState: record.reviewState,
    ...(record.cancelPendingDate ? { cancelPendingDate: toUsDate(record.cancelPendingDate)! } : {}),
    ...(record.rewrittenTo ? { rewrittenTo: { policyId: record.rewrittenTo.policyId, policyNumber: record.rewrittenTo.policyNumber } } : {}),
    ...(record.rewrittenFrom ? { rewrittenFrom: { policyId: record.rewrittenFrom.policyId, policyNumber: record.rewrittenFrom.policyNumber } } : {}),
  };
}

/** The value a record is sorted by: dates as stored (ISO sorts by time), the rest as shown. */
function sortValue(record: SearchRecord, field: SortField): string {
  switch (field) {
    case 'namedInsured':
      return record.namedInsuredNames.join(', ');
    case 'policyType':
      return record.policyTypeName;
    default:
      return String(record[field] ?? '');
  }
}

// Made on the first sort by another field, not at import: building a collator loads ICU's
// collation data, about 10 ms of a cold start of every function that bundles this module.
let collator: Intl.Collator | undefined;
const collate = (a: string, b: string) => (collator ??= new Intl.Collator('en', { numeric: true, sensitivity: 'base' })).compare(a, b);

const compareBytes = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Sorts records by the field; numbers inside text compare as numbers (`10-2026-9` before
 * `10-2026-10`); ties by policy id. The policy number compares by its order key, exactly
 * as the index orders it, so a page read from records and one read from the index agree.
 */
export function sortRecords(records: readonly SearchRecord[], sort: SearchQuery['sort']): SearchRecord[] {
  const direction = sort.order === 'desc' ? -1 : 1;
  if (sort.field === 'policyNumber') {
    const keyed = records.map((record) => ({ record, key: numberOrderKey(record.policyNumber) }));
    return keyed.sort((a, b) => direction * (compareBytes(a.key, b.key) || compareBytes(a.record.policyId, b.record.policyId))).map(({ record }) => record);
  }
  return [...records].sort((a, b) => direction * (collate(sortValue(a, sort.field), sortValue(b, sort.field)) || a.policyId.localeCompare(b.policyId)));
}

