/**
 * The cancel move's wiring (cancel_policy and the nightly job alike, so what a cancellation
 * writes cannot differ between them): the policy's own (the term, its revisions), billing's Cancellation and Return Premium rows, search,
 * the Notice of Cancellation, the note, the event; billing's cancel reasons and figures; and what
 * billing, the books and commissions read of the term, begun beside the move's own read of it.
 */
import { booksAtCancellation, booksReadAheadAtCancellation } from '../books/joins-moves.js';
import { commissionsAtCancellation, commissionsReadAheadAtCancellation } from '../commissions/joins-moves.js';
import { billingAtCancellation, billingReadAhead, cancellationFigures, cancelReason } from '../billing/joins-moves.js';
import { noticeOfCancellation } from '../documents/joins-moves.js';
import { eventsAtCancellation } from '../events/joins-moves.js';
import { cancelPolicy, type CancelWiring } from '../lifecycle/cancel.js';
import { wired } from '../lifecycle/joining.js';
import { noteOfMove } from '../notes/joins-moves.js';
import { policiesAtCancellation } from '../policies/joins-moves.js';
import { searchAtCancellation } from '../search/joins-moves.js';

export const cancelWiring: CancelWiring = {
  cancel: [policiesAtCancellation, billingAtCancellation, searchAtCancellation, noticeOfCancellation, noteOfMove, eventsAtCancellation, commissionsAtCancellation, booksAtCancellation],
  reads: { cancelReason, cancellationFigures },
  readAhead: [billingReadAhead, booksReadAheadAtCancellation, commissionsReadAheadAtCancellation],
};

export const cancelMove = /* @__PURE__ */ wired(cancelWiring, cancelPolicy);
