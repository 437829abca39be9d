/**
 * The facts of a term's revisions that the moves decide on (state, date, commit order, status):
 * from the term's own index where an endorsement wrote them, else from the revisions' headers.
 * One read of the term then serves however many endorsements it has had.
 */
import type { IndexedRevision, RevisionRecord, TermRecord } from './model.js';
import { getRevisionHeaders } from './store.js';

export interface TermRevisionFacts extends IndexedRevision {
  id: string;
}

export const committedAtOf = (header: RevisionRecord) => header.endorsement?.committedAt ?? header.commitDate ?? '';

export function indexedFacts(header: RevisionRecord, committedAt = committedAtOf(header)): IndexedRevision {
  return { revisionState: header.revisionState, revisionDate: header.revisionDate, committedAt, policyStatus: header.policyStatus };
}

export async function termRevisionFacts(term: TermRecord): Promise<TermRevisionFacts[]> {
  const index = term.revisionIndex ?? {};
  const headers = new Map((await getRevisionHeaders(term.revisionIds.filter((id) => !index[id]))).map((header) => [header.id, header]));
  return term.revisionIds.flatMap((id) => {
    if (index[id]) return [{ id, ...index[id] }];
    const header = headers.get(id);
    return header ? [{ id, ...indexedFacts(header) }] : [];
  });
}

/** The term's index with one revision's facts set (or removed, with `undefined`). */
export function indexWith(term: TermRecord, id: string, facts: IndexedRevision | undefined): Record<string, IndexedRevision> {
  const { [id]: _removed, ...rest } = term.revisionIndex ?? {};
  return facts ? { ...rest, [id]: facts } : rest;
}
