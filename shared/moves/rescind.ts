/** The rescind move's wiring (rescind_cancellation and the nightly job): billing's non-payment state, search, the note, the event. */
import { billingAtRescission } from '../billing/joins-moves.js';
import { eventsAtRescission } from '../events/joins-moves.js';
import { wired } from '../lifecycle/joining.js';
import { rescindCancellation, type RescindWiring } from '../lifecycle/rescind.js';
import { noteOfMove } from '../notes/joins-moves.js';
import { policiesAtRescission } from '../policies/joins-moves.js';
import { searchAtRescission } from '../search/joins-moves.js';

export const rescindWiring: RescindWiring = { rescind: [policiesAtRescission, billingAtRescission, searchAtRescission, noteOfMove, eventsAtRescission] };

export const rescindMove = /* @__PURE__ */ wired(rescindWiring, rescindCancellation);
