/** The note a policy's move leaves (a cancellation, pending or taking effect; a rescission), registered once in shared/moves.ts. */
import type { CancelledTerm, EndorsementContribution, RescindedCancellation, TransactionWrite } from '../lifecycle/index.js';
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

/** The endorsement's note, stamped with its commit; a preview shows its text. */
export const noteOfEndorsement: EndorsementContribution = async (endorsed, options) => {
  const preview = [{ text: endorsed.summary }];
  if (options.preview) return { area: 'notes', writes: [], preview };
  const note = newNote({
    policyId: endorsed.policyId,
    termId: endorsed.termId,
    createdBy: endorsed.decidedBy,
    createdAt: endorsed.committedAt,
    agencyId: endorsed.agencyId ?? null,
    contactIds: endorsed.contactIds,
    text: endorsed.summary,
  });
  return { area: 'notes', writes: [notePut(note)], preview };
};
