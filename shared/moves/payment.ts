/**
 * A payment's wiring: the areas joined to a posted payment or its NSF reversal, in its transaction
 * (commission earned as premium is collected, or charged back with a returned payment, where the
 * carrier pays commission on the collected basis).
 */
import { makeManualPayment, storeNsf, type ManualPayment, type NsfRequestWire, type PaymentJoin } from '../billing/index.js';
import { commissionsAtCollection } from '../commissions/joins-moves.js';
import type { Principal } from '../platform/principal.js';

export const paymentJoins: readonly PaymentJoin[] = [commissionsAtCollection];

/** makeManualPolicyPayment with its joins. */
export const makeManualPaymentMove = (principal: Principal, request: ManualPayment) => makeManualPayment(principal, request, undefined, paymentJoins);

/** storeNSF with its joins: the reversal takes back what the payment earned. */
export const storeNsfMove = (principal: Principal, request: NsfRequestWire) => storeNsf(principal, request, undefined, paymentJoins);
