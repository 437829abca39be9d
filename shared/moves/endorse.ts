/**
 * The endorse move's wiring, and its preview's: the policy's own commit (and the renewal revision a
 * change is carried into), billing's Endorsement row, documents' Endorsement
 * Declaration, search, the note and the event join the endorsement (and show in its preview).
 */
import { booksAtEndorsement, booksReadAheadAtEndorsement } from '../books/joins-moves.js';
import { commissionsAtEndorsement, commissionsReadAheadAtEndorsement } from '../commissions/joins-moves.js';
import { billingAtEndorsement, billingPreviewAtEndorsement, billingReadAhead } from '../billing/joins-moves.js';
import { endorsementDeclaration } from '../documents/joins-moves.js';
import { eventsAtEndorsement } from '../events/joins-moves.js';
import { issueEndorsement, previewEndorsement, type EndorseWiring } from '../lifecycle/endorse.js';
import { wired } from '../lifecycle/joining.js';
import { noteOfEndorsement } from '../notes/joins-moves.js';
import { policiesAtEndorsement, policiesAtRenewalRewrite } from '../policies/joins-moves.js';
import { searchAtEndorsement } from '../search/joins-moves.js';

export const endorseWiring: EndorseWiring = {
  endorse: [policiesAtEndorsement, billingAtEndorsement, endorsementDeclaration, searchAtEndorsement, noteOfEndorsement, eventsAtEndorsement, commissionsAtEndorsement, booksAtEndorsement],
  renewalRewrite: [policiesAtRenewalRewrite],
  readAhead: [billingReadAhead, booksReadAheadAtEndorsement, commissionsReadAheadAtEndorsement],
};

/** The same parts for a preview; billing's answers the same figures without bundling its posting. */
export const previewEndorsementWiring: EndorseWiring = {
  endorse: [policiesAtEndorsement, billingPreviewAtEndorsement, endorsementDeclaration, searchAtEndorsement, noteOfEndorsement, eventsAtEndorsement],
  renewalRewrite: [policiesAtRenewalRewrite],
  readAhead: [billingReadAhead],
};

/** The endorse move also carries a change into a renewal made of the term, as an endorsement of it. */
export const endorseMove = /* @__PURE__ */ wired(endorseWiring, issueEndorsement);
/** What endorsing would do, writing nothing: the same contributions, asked for their preview. */
export const previewEndorsementMove = /* @__PURE__ */ wired(previewEndorsementWiring, previewEndorsement);
