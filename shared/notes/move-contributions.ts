/** The note a policy's move leaves (a cancellation, pending or taking effect; a rescission), registered once in shared/moves.ts. */
import type { CancelledTerm, RescindedCancellation, TransactionWrite } from '../lifecycle/index.js';
import { newNote, notePut } from './store.js';

/** The move's summary as a note on the policy, stamped with the move's decision. */
export async function noteOfMove(move: CancelledTerm | RescindedCancellation): Promise<TransactionWrite[]> {
  const note = newNote({
    policyId: move.policyId,
    termId: move.termId,
    createdBy: move.decidedBy,
    createdAt: move.decidedAt,
    agencyId: move.agencyId ?? null,
    contactIds: move.contactIds,
    text: move.summary,
  });
  return [notePut(note)];
}
