/**
 * How names are searched: case-insensitive, accents folded, split into words; a search
 * matches a contact when every word of the search begins a word of the contact's name.
 */

/** Names with more distinct words than this are searchable by their first ones only (transaction size). */
export const MAX_INDEXED_WORDS = 8;

function fold(text: string | undefined): string {
  return (text ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    // "O'Brien" is searched as "obrien", not as "o" and "brien".
    .replace(/['\u2019`]/g, '');
}

/** The distinct words of a name or a search string, in order of appearance. */
export function nameWords(text: string | undefined): string[] {
  const words = fold(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
  return [...new Set(words)];
}

/** The words written to the name index (bounded, so that a contact's records fit one transaction). */
export function indexedWords(name: string | undefined): string[] {
  return nameWords(name).slice(0, MAX_INDEXED_WORDS);
}

/** The key contacts are listed by: the folded name with single spaces. */
export function sortName(name: string | undefined): string {
  return nameWords(name).join(' ') || fold(name).trim();
}

/** Whether every word of the search begins some word of the contact's name. */
export function matchesSearch(contactWords: readonly string[], searchWords: readonly string[]): boolean {
  return searchWords.every((wanted) => contactWords.some((word) => word.startsWith(wanted)));
}

/** The search word to query the index by: the longest one is likely the most selective. */
export function mostSelectiveWord(searchWords: readonly string[]): string | undefined {
  return [...searchWords].sort((a, b) => b.length - a.length)[0];
}
