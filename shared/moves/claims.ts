/**
 * The claim moves' wiring: the areas joined to a claim's move in its one transaction (the claims
 * area's kernel, shared/claims/moves.ts, takes them as `ClaimMoveContribution`s). The documents
 * area asks for the claim's letters: the acknowledgement at first notice (the state's wording,
 * Florida's Homeowner Claims Bill of Rights), the denial's letter, the closing letter, a
 * reservation of rights; the documents consumer renders them after the commit, so a function that
 * moves a claim never loads the PDF library. The books hear every claim move: the money it moves
 * lands in the books in the move's transaction, and a move that moves none adds nothing.
 *
 * Money (part two): every move that moves a claim's money (an exposure opened with its default
 * reserve or closed releasing it, a reserve set, a payment made, approved, issued, cleared or
 * voided, a recovery) carries its signed entries on the move's facts (`money`) and takes
 * `moneyContributions`: the areas that count a claim's money (the books) join there, once. A claim
 * closed (update_claim) releases reserves too: it takes both lists, each contribution once. A check
 * export asks besides for the Claim Payment letter to each payment's payee (`exportContributions`).
 */
import {
  addRecovery,
  addRecoveryReserve,
  addReserve,
  approvePayment,
  createExposure,
  exportClaimPayments,
  makePayment,
  markPaymentCleared,
  reportClaim,
  requestReservationOfRights,
  updateClaim,
  updateExposureStatus,
  voidTransaction,
  type ClaimMoveContribution,
  type ClaimReport,
  type PaymentRequest,
} from '../claims/index.js';
import { claimBooks } from '../books/joins-moves.js';
import { claimLetters } from '../documents/joins-moves.js';
import type { Principal } from '../platform/principal.js';

/** First notice of loss. */
export const reportContributions: readonly ClaimMoveContribution[] = [claimLetters, claimBooks];
/** update_claim: a denial, a close (a close releasing reserves moves money). */
export const updateContributions: readonly ClaimMoveContribution[] = [claimLetters, claimBooks];
/** request_reservation_of_rights. */
export const reservationContributions: readonly ClaimMoveContribution[] = [claimLetters, claimBooks];
/** export_claim_payments: the letter telling each payee of the payment issued to it (through the print queue). */
export const exportContributions: readonly ClaimMoveContribution[] = [claimLetters];
/** Every move of a claim's money (see above): the books count it. */
export const moneyContributions: readonly ClaimMoveContribution[] = [claimBooks];

/** The lists joined, each contribution once (the books, in both, run once). */
const both = (...lists: ReadonlyArray<readonly ClaimMoveContribution[]>): ClaimMoveContribution[] => [...new Set(lists.flat())];

export const reportClaimMove = (principal: Principal, report: ClaimReport) => reportClaim(principal, report, reportContributions);

export const updateClaimMove = (principal: Principal, claimId: string, update: Parameters<typeof updateClaim>[2]) => updateClaim(principal, claimId, update, both(updateContributions, moneyContributions));

export const reservationOfRightsMove = (principal: Principal, request: { claimId: string; reason: string }) => requestReservationOfRights(principal, request, reservationContributions);

export const createExposureMove = (principal: Principal, request: Parameters<typeof createExposure>[1]) => createExposure(principal, request, moneyContributions);
export const updateExposureMove = (principal: Principal, request: Parameters<typeof updateExposureStatus>[1]) => updateExposureStatus(principal, request, moneyContributions);
export const addReserveMove = (principal: Principal, request: Parameters<typeof addReserve>[1]) => addReserve(principal, request, moneyContributions);
export const makePaymentMove = (principal: Principal, request: PaymentRequest) => makePayment(principal, request, moneyContributions);
export const approvePaymentMove = (principal: Principal, paymentId: string) => approvePayment(principal, paymentId, moneyContributions);
export const voidTransactionMove = (principal: Principal, request: Parameters<typeof voidTransaction>[1]) => voidTransaction(principal, request, moneyContributions);
export const exportClaimPaymentsMove = (principal: Principal, request: Parameters<typeof exportClaimPayments>[1]) => exportClaimPayments(principal, request, both(exportContributions, moneyContributions));
export const markPaymentClearedMove = (principal: Principal, request: Parameters<typeof markPaymentCleared>[1]) => markPaymentCleared(principal, request, moneyContributions);
export const addRecoveryReserveMove = (principal: Principal, request: Parameters<typeof addRecoveryReserve>[1]) => addRecoveryReserve(principal, request, moneyContributions);
export const addRecoveryMove = (principal: Principal, request: Parameters<typeof addRecovery>[1]) => addRecovery(principal, request, moneyContributions);
