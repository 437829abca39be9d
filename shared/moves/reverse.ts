/**
 * The reverse move's wiring: billing's Endorsement row (the reversed premium, re-spread over the
 * installments), the reversing endorsement committed and the reversed one marked as reversed (once), the Endorsement Declaration saying it reverses, search, the note, the event.
 */
import { booksAtEndorsement, booksReadAheadAtEndorsement } from '../books/joins-moves.js';
import { commissionsAtEndorsement, commissionsReadAheadAtEndorsement } from '../commissions/joins-moves.js';
import { billingAtReversal, billingReadAhead } from '../billing/joins-moves.js';
import { reversalDeclaration } from '../documents/joins-moves.js';
import { eventsAtReversal } from '../events/joins-moves.js';
import { wired } from '../lifecycle/joining.js';
import { reverseRevision, type ReverseWiring } from '../lifecycle/reverse.js';
import { noteOfEndorsement } from '../notes/joins-moves.js';
import { policiesAtRenewalRewrite, policiesAtReversal } from '../policies/joins-moves.js';
import { searchAtEndorsement } from '../search/joins-moves.js';

export const reverseWiring: ReverseWiring = {
  reverse: [policiesAtReversal, billingAtReversal, reversalDeclaration, searchAtEndorsement, noteOfEndorsement, eventsAtReversal, commissionsAtEndorsement, booksAtEndorsement],
  // Carried into a committed renewal: the renewal's own Endorsement row (taken back as the reversal's is), Declaration, note, event and books; the policies area's part there is renewalRewrite's.
  carriedIntoRenewal: [billingAtReversal, reversalDeclaration, searchAtEndorsement, noteOfEndorsement, eventsAtReversal, commissionsAtEndorsement, booksAtEndorsement],
  renewalRewrite: [policiesAtRenewalRewrite],
  readAhead: [billingReadAhead, booksReadAheadAtEndorsement, commissionsReadAheadAtEndorsement],
};

export const reverseMove = /* @__PURE__ */ wired(reverseWiring, reverseRevision);
