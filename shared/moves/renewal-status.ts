/** store_renewal_status's wiring: the term's renewal decision (a held renewal declined archived), a Notice of Non-Renewal, search (a held renewal declined), the note, the event. */
import { noticeOfNonRenewal } from '../documents/joins-moves.js';
import { eventsAtRenewalStatus } from '../events/joins-moves.js';
import { wired } from '../lifecycle/joining.js';
import { storeRenewalStatus, type RenewalStatusWiring } from '../lifecycle/renew.js';
import { noteOfMove } from '../notes/joins-moves.js';
import { policiesAtRenewalStatus } from '../policies/joins-moves.js';
import { searchAtRenewalStatus } from '../search/joins-moves.js';

export const renewalStatusWiring: RenewalStatusWiring = { renewalStatus: [policiesAtRenewalStatus, noticeOfNonRenewal, searchAtRenewalStatus, noteOfMove, eventsAtRenewalStatus] };

export const storeRenewalStatusMove = /* @__PURE__ */ wired(renewalStatusWiring, storeRenewalStatus);
