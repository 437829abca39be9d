/**
 * The facts of a term's revisions that the moves decide on (state, date, commit order, status):
 * from the term's own index where an endorsement wrote them, else from the revisions' headers.
 * One read of the term then serves however many endorsements it has had.
 */
import type { IndexedRevision, RevisionRecord, RevisionSnapshot, TermRecord } from './model.js';
import { getRevisionHeaders, loadRevision } from './store.js';

export interface TermRevisionFacts extends IndexedRevision {
  id: string;
}

export const committedAtOf = (header: RevisionRecord) => header.endorsement?.committedAt ?? header.commitDate ?? '';

export function indexedFacts(header: RevisionRecord, committedAt = committedAtOf(header)): IndexedRevision {
  return { revisionState: header.revisionState, revisionDate: header.revisionDate, committedAt, policyStatus: header.policyStatus };
}

/** `given`: the headers a move read already (a revision neither they nor the index hold is left out); without them, those the index lacks are read. */
export async function termRevisionFacts(term: TermRecord, given?: readonly RevisionRecord[]): Promise<TermRevisionFacts[]> {
  const index = term.revisionIndex ?? {};
  const headers = new Map((given ?? (await getRevisionHeaders(term.revisionIds.filter((id) => !index[id])))).map((header) => [header.id, header]));
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

/**
 * A term's committed revisions with their parts, in the term's order, each read at once (one
 * Query of its partition): what a move deciding on the whole term reads (a cancellation: the
 * revision in force, the later ones it marks, and the return premium over each). A revision the
 * term's index holds as not committed is not read; one it does not index is read to find out.
 */
export async function termCommittedRevisions(term: TermRecord): Promise<RevisionSnapshot[]> {
  const index = term.revisionIndex ?? {};
  const read = await Promise.all(term.revisionIds.filter((id) => !index[id] || index[id].revisionState === 'committed').map((id) => loadRevision(id)));
  return read.filter((snapshot): snapshot is RevisionSnapshot => snapshot?.header.revisionState === 'committed');
}
