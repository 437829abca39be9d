/** The note a policy's move leaves (a cancellation, pending or taking effect; a rescission), registered once in shared/moves.ts. */
import type { CancelledTerm, EndorsementContribution, ReinstatedTerm, RenewalStatusDecision, RenewedTerm, RescindedCancellation, TermDecision, TransactionWrite } from '../lifecycle/index.js';
import { newNote, notePut } from './store.js';

type NotedMove = Pick<CancelledTerm, 'policyId' | 'termId' | 'agencyId' | 'contactIds' | 'summary' | 'decidedBy'>;

/** A move's summary as the put of a note on the policy, by who decided it, at `at`. */
function notePutOf(move: NotedMove, at: string): TransactionWrite {
  return notePut(newNote({ policyId: move.policyId, termId: move.termId, createdBy: move.decidedBy, createdAt: at, agencyId: move.agencyId ?? null, contactIds: move.contactIds, text: move.summary }));
}

/** The move's summary as a note on the policy, stamped with the move's decision. */
export async function noteOfMove(move: CancelledTerm | RescindedCancellation | RenewedTerm | TermDecision | RenewalStatusDecision | ReinstatedTerm): Promise<TransactionWrite[]> {
  return [notePutOf(move, move.decidedAt)];
}

/** The endorsement's note, stamped with its commit; a preview shows its text. */
export const noteOfEndorsement: EndorsementContribution = async (endorsed, options) => {
  const preview = [{ text: endorsed.summary }];
  if (options.preview) return { area: 'notes', writes: [], preview };
  return { area: 'notes', writes: [notePutOf(endorsed, endorsed.committedAt)], preview };
};
