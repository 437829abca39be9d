/**
 * A reservation of rights: the carrier tells the insured that it goes on investigating a claim
 * while reserving its right to deny coverage, and why. A claim move (moves.ts) like any other:
 * the change kept with who, when and the reason, the note on the policy, the event, and the
 * letters the documents area adds (the Reservation of Rights letter), in one transaction.
 */
import { clock } from '../platform/clock.js';
import type { Principal } from '../platform/principal.js';
import { ClaimRuleError } from './model.js';
import { commitClaimMove, type ClaimMoveContribution } from './moves.js';
import { claimWithinReach, stateOf } from './service.js';
import { claimToWire } from './wire.js';

/** The move's kind: the documents area answers it with the Reservation of Rights letter. */
export const RESERVATION_OF_RIGHTS = 'reservation_of_rights';

export async function requestReservationOfRights(principal: Principal, request: { claimId: string; reason: string }, contributions: readonly ClaimMoveContribution[] = []) {
  const whole = await claimWithinReach(principal, request.claimId);
  const { claim } = whole;
  const reason = request.reason.trim();
  if (!reason) throw new ClaimRuleError('reason: a reservation of rights says why the rights are reserved');
  if (claim.status === 'closed') throw new ClaimRuleError(`claim_id: claim ${claim.claimNumber} is closed; reopen it first`);
  if (claim.denial) throw new ClaimRuleError(`claim_id: claim ${claim.claimNumber} was denied on ${claim.denial.at.slice(0, 10)}; a reservation of rights comes before the decision`);
  const at = clock.now().toISOString();
  const after = { ...claim, updatedAt: at };
  await commitClaimMove({
    kind: RESERVATION_OF_RIGHTS,
    label: `Claim ${claim.claimNumber}`,
    at,
    by: principal.contactId,
    before: stateOf(whole),
    after: stateOf({ ...whole, claim: after }),
    changes: [{ field: 'reservation_of_rights', from: null, to: reason }],
    reason,
    note: `Claim ${claim.claimNumber}: rights reserved: ${reason}`.slice(0, 500),
    event: { type: 'claim.updated', data: { changed: ['reservation_of_rights'] } },
    contributions,
  });
  return { ...claimToWire({ ...after, version: claim.version + 1 }), reservation_of_rights: { reason, at, by: principal.contactId } };
}
