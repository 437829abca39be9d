/** The reinstate move's wiring: the cancellation's rows reversed (the lapse credited, the fee assessed), search, the Notice of Reinstatement, the note, the event; billing's cancel reasons. */
import { booksAtReinstatement } from '../books/joins-moves.js';
import { commissionsAtReinstatement } from '../commissions/joins-moves.js';
import { billingAtReinstatement, cancelReason } from '../billing/joins-moves.js';
import { noticeOfReinstatement } from '../documents/joins-moves.js';
import { eventsAtReinstatement } from '../events/joins-moves.js';
import { wired } from '../lifecycle/joining.js';
import { reinstatePolicy, type ReinstateWiring } from '../lifecycle/reinstate.js';
import { noteOfMove } from '../notes/joins-moves.js';
import { searchAtReinstatement } from '../search/joins-moves.js';
import { policiesAtReinstatement } from '../policies/joins-moves.js';

export const reinstateWiring: ReinstateWiring = {
  reinstate: [policiesAtReinstatement, billingAtReinstatement, searchAtReinstatement, noticeOfReinstatement, noteOfMove, eventsAtReinstatement, commissionsAtReinstatement, booksAtReinstatement],
  reads: { cancelReason },
};

export const reinstateMove = /* @__PURE__ */ wired(reinstateWiring, reinstatePolicy);
