/** Notes' part in a policy's moves: the note a move leaves on the policy, its summary by who decided it. Listed per move in shared/moves/. */
import type { AreaPart, CancelledTerm, EndorsedRevision, ReinstatedTerm, RenewalStatusDecision, RenewedTerm, RescindedCancellation, RewrittenPolicy, TermDecision, TransactionWrite } from '../lifecycle/index.js';
import { newNote, notePut } from './store.js';

type NotedMove = Pick<CancelledTerm, 'policyId' | 'termId' | 'agencyId' | 'contactIds' | 'summary' | 'decidedBy'>;

/** A move's summary as the put of a note on the policy, by who decided it, at `at`. */
function notePutOf(move: NotedMove, at: string): TransactionWrite {
  return notePut(newNote({ policyId: move.policyId, termId: move.termId, createdBy: move.decidedBy, createdAt: at, agencyId: move.agencyId ?? null, contactIds: move.contactIds, text: move.summary }));
}

/** The move's summary as a note on the policy, stamped with the move's decision. */
export async function noteOfMove(move: CancelledTerm | RescindedCancellation | RenewedTerm | TermDecision | RenewalStatusDecision | ReinstatedTerm): Promise<AreaPart> {
  return { area: 'notes', writes: [notePutOf(move, move.decidedAt)] };
}

/** The endorsement's note, stamped with its commit; a preview shows its text. */
export async function noteOfEndorsement(endorsed: EndorsedRevision, mode: { preview: boolean }): Promise<AreaPart> {
  const preview = [{ text: endorsed.summary }];
  if (mode.preview) return { area: 'notes', writes: [], preview };
  return { area: 'notes', writes: [notePutOf(endorsed, endorsed.committedAt)], preview };
}

/** A rewrite's two notes, each side's naming the other: on the old term (what it became), then on the new one (what it came from). */
export async function noteOfRewrite(rewritten: RewrittenPolicy, mode: { preview: boolean } = { preview: false }): Promise<AreaPart> {
  const preview = [{ text: rewritten.oldSideSummary }, { text: rewritten.newSideSummary }];
  if (mode.preview) return { area: 'notes', writes: [], preview };
  const later = new Date(Date.parse(rewritten.decidedAt) + 20).toISOString();
  return {
    area: 'notes',
    writes: [
      notePutOf({ ...rewritten, termId: rewritten.fromTermId, summary: rewritten.oldSideSummary }, rewritten.decidedAt),
      // On the new side's policy: the same one, or the new account's (a rewrite to a new policy number).
      notePutOf({ ...rewritten, policyId: rewritten.committed.policyId, agencyId: rewritten.committed.agencyId, contactIds: rewritten.newPolicy?.record.contactIds ?? rewritten.contactIds, termId: rewritten.committed.termId, summary: rewritten.newSideSummary }, later),
    ],
    preview,
  };
}
