/**
 * Which letters a claim's move asks for, and the facts each is made from: all a claim move
 * bundles of its letters (documents/joins-moves.ts `claimLetters`). What a letter says (its
 * wording, the attachments that go with it) is claim-letters.ts, read when it is rendered. Pure;
 * unit-tested (test/unit/claim-letters.test.ts).
 */
import type { ClaimLetterFacts, ClaimLetterType, ClaimMoveOfLetter, ClaimOfLetter, ClaimPaymentOfLetter } from './model.js';

/** The move that reserves the carrier's rights (claims' request_reservation_of_rights). */
export const RESERVATION_OF_RIGHTS_MOVE = 'reservation_of_rights';

/**
 * The letters a claim's move asks for: the acknowledgement at first notice; a denial's letter
 * when the move records a denial; the closing letter when it closes the claim (a claim denied
 * and closed at once gets the denial's letter alone, which says all the closing would); a
 * reservation of rights when that is the move.
 */
export function lettersOfClaimMove(move: ClaimMoveOfLetter): ClaimLetterType[] {
  if (move.kind === 'reported' && !move.before) return ['Claim Acknowledgement'];
  if (move.kind === RESERVATION_OF_RIGHTS_MOVE) return ['Reservation of Rights'];
  const letters: ClaimLetterType[] = [];
  const { claim } = move.after;
  const denied = claim.denial !== null && claim.denial.at === move.at;
  if (denied) letters.push('Denial');
  if (!denied && claim.status === 'closed' && move.before?.claim.status !== 'closed') letters.push('Closing');
  return letters;
}

/** The reason a letter gives: the one given, else the denial's, or the closing's (its status change); an acknowledgement gives none. */
export function letterReason(type: ClaimLetterType, claim: ClaimOfLetter, given: string | null): string | null {
  if (type === 'Claim Acknowledgement' || type === 'Claim Payment') return null;
  if (given?.trim()) return given.trim();
  if (type === 'Denial') return claim.denial?.reason ?? null;
  if (type === 'Closing') return [...claim.statusHistory].reverse().find((change) => change.status === 'closed')?.reason ?? null;
  return null;
}

/**
 * The Claim Payment letters a move asks for: one per payment it issued, to its first payee (the one
 * it pays; a joint payee such as the mortgagee is named on the check, not written to), with what it paid.
 */
export function paymentLettersOfClaimMove(move: ClaimMoveOfLetter): Array<{ recipientContactId: string | null; payment: ClaimPaymentOfLetter }> {
  return (move.issuedPayments ?? []).map((issued) => {
    const { payees, ...payment } = issued;
    const payee = payees.find((candidate) => candidate.as === 'payee') ?? payees[0];
    return { recipientContactId: payee?.contactId ?? null, payment: { ...payment, payeeNames: payees.map((candidate) => candidate.name) } };
  });
}

/** A letter's facts, from the claim as the move leaves it. */
export function claimLetterFacts(type: ClaimLetterType, claim: ClaimOfLetter, reason: string | null, payment?: ClaimPaymentOfLetter): ClaimLetterFacts {
  const { line1, line2, city, state, zip } = claim.lossAddress;
  return {
    claimId: claim.claimId,
    claimNumber: claim.claimNumber,
    insuredName: claim.insuredName,
    lossDate: claim.lossDate,
    reportedDate: claim.reportedDate,
    perilCode: claim.perilCode,
    description: claim.description,
    lossAddress: { line1, ...(line2 ? { line2 } : {}), city, state, zip },
    state: claim.state,
    reason: letterReason(type, claim, reason),
    ...(payment ? { payment } : {}),
  };
}

/** The file's title: `Claim Acknowledgement - CL-2026-1`, and an agency's e-mailed copy's. */
export function claimLetterTitle(type: ClaimLetterType, claimNumber: string, copy?: 'agency'): string {
  return `${type}${copy ? ' (agency copy)' : ''} - ${claimNumber}`;
}
