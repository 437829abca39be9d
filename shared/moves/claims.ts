/**
 * The claim moves' wiring: the areas joined to a claim's move in its one transaction (the claims
 * area's kernel, shared/claims/moves.ts, takes them as `ClaimMoveContribution`s). The documents
 * area asks for the claim's letters: the acknowledgement at first notice (the state's wording,
 * Florida's Homeowner Claims Bill of Rights), the denial's letter, the closing letter, a
 * reservation of rights; the documents consumer renders them after the commit, so a function that
 * moves a claim never loads the PDF library. The books hear every claim move: the money it moves
 * (reserves, payments, recoveries, checks cleared) lands in the books in the move's transaction, and
 * a move that moves none adds nothing.
 */
import { reportClaim, requestReservationOfRights, updateClaim, type ClaimMoveContribution, type ClaimReport } from '../claims/index.js';
import { claimBooks } from '../books/joins-moves.js';
import { claimLetters } from '../documents/joins-moves.js';
import type { Principal } from '../platform/principal.js';

/** First notice of loss. */
export const reportContributions: readonly ClaimMoveContribution[] = [claimLetters, claimBooks];
/** update_claim: a denial, a close (a close releasing reserves moves money). */
export const updateContributions: readonly ClaimMoveContribution[] = [claimLetters, claimBooks];
/** request_reservation_of_rights. */
export const reservationContributions: readonly ClaimMoveContribution[] = [claimLetters, claimBooks];
/** The claim's money moves (reserves, payments, approvals, voids, checks, recoveries). */
export const moneyContributions: readonly ClaimMoveContribution[] = [claimBooks];

export const reportClaimMove = (principal: Principal, report: ClaimReport) => reportClaim(principal, report, reportContributions);

export const updateClaimMove = (principal: Principal, claimId: string, update: Parameters<typeof updateClaim>[2]) => updateClaim(principal, claimId, update, updateContributions);

export const reservationOfRightsMove = (principal: Principal, request: { claimId: string; reason: string }) => requestReservationOfRights(principal, request, reservationContributions);
