/**
 * The renewal moves' wiring: a watched term's day (the nightly run, process_renewals) renews it,
 * puts its renewal in force, or expires it; reinstate_expired_policy renews an expired term.
 * Renewing: the renewal's term and revision (or a held one committed), billing's account and invoices of the new term, its Renewal Declaration and Billing
 * Statement (or a held one's Conditional Renewal Notice), search, the note, the event; the policy's
 * claims read from the claims area (a loss in the past 3 years answers the renewal's question yes).
 */
import { booksAtRenewal } from '../books/joins-moves.js';
import { lossesOnFile } from '../claims/index.js';
import { commissionsAtRenewal } from '../commissions/joins-moves.js';
import { billingAtRenewal, billingScheduleOf } from '../billing/joins-moves.js';
import { renewalDocuments } from '../documents/joins-moves.js';
import { eventsAtExpiry, eventsAtRenewal } from '../events/joins-moves.js';
import { wired } from '../lifecycle/joining.js';
import { decideRenewalTerm, processPolicyRenewal, reinstateExpiredPolicy, type RenewalDayWiring, type RenewWiring } from '../lifecycle/renew.js';
import { noteOfMove } from '../notes/joins-moves.js';
import { policiesAtExpiry, policiesAtRenewal, policiesAtRenewalInForce } from '../policies/joins-moves.js';
import { searchAtExpiry, searchAtRenewal, searchAtRenewalInForce } from '../search/joins-moves.js';

export const renewWiring: RenewWiring = { renew: [policiesAtRenewal, billingAtRenewal, renewalDocuments, searchAtRenewal, noteOfMove, eventsAtRenewal, commissionsAtRenewal, booksAtRenewal], reads: { billingScheduleOf, lossHistory: lossesOnFile } };

export const renewalDayWiring: RenewalDayWiring = {
  ...renewWiring,
  renewalInForce: [policiesAtRenewalInForce, searchAtRenewalInForce, noteOfMove],
  expire: [policiesAtExpiry, searchAtExpiry, noteOfMove, eventsAtExpiry],
};

/** One watched term decided for a day: renew, commit a held renewal, put a renewal in force, or expire (the nightly run). */
export const decideRenewalTermMove = /* @__PURE__ */ wired(renewalDayWiring, decideRenewalTerm);
export const processPolicyRenewalMove = /* @__PURE__ */ wired(renewalDayWiring, processPolicyRenewal);
export const reinstateExpiredPolicyMove = /* @__PURE__ */ wired(renewWiring, reinstateExpiredPolicy);
