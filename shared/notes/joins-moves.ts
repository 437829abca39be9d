/** Notes' part in a policy's moves: the note a move leaves on the policy, its summary by who decided it. Listed per move in shared/moves/. */
import type { AreaPart, CancelledTerm, EndorsedRevision, ReinstatedTerm, RenewalStatusDecision, RenewedTerm, RescindedCancellation, TermDecision, TransactionWrite } from '../lifecycle/index.js';
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
