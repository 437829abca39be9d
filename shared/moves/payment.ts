/**
 * A payment's wiring: the areas joined to a posted payment, in its transaction (commission
 * earned as premium is collected, where the carrier pays commission on the collected basis).
 */
import { makeManualPayment, type ManualPayment, type PaymentJoin } from '../billing/index.js';
import { commissionsAtCollection } from '../commissions/joins-moves.js';
import type { Principal } from '../platform/principal.js';

export const paymentJoins: readonly PaymentJoin[] = [commissionsAtCollection];

/** makeManualPolicyPayment with its joins. */
export const makeManualPaymentMove = (principal: Principal, request: ManualPayment) => makeManualPayment(principal, request, undefined, paymentJoins);
