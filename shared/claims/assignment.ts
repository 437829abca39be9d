/**
 * auto_assign_claim: a claim given to an adjuster by the carrier's assignment rules (peril and
 * state, assignment-rules.ts) and load (the fewest open claims, ties by name). Assigning is a
 * claim move: the adjuster set, the change kept with who and when, the note, claim.updated.
 */
import { getClaimsRules, listRoles } from '../catalog/index.js';
import { CLAIMS_ADJUSTER_ROLE_ID, CLAIMS_MANAGER_ROLE_ID, contactsHoldingRole, getContacts, type ContactSummary } from '../contacts/index.js';
import { clock } from '../platform/clock.js';
import type { Principal } from '../platform/principal.js';
import { assignmentPool, leastLoaded, poolDescribed, type AssignmentPool, type Candidate } from './assignment-rules.js';
import { openClaimsOf } from './assignment-store.js';
import { ClaimRuleError } from './model.js';
import { commitClaimMove, type ClaimMoveContribution } from './moves.js';
import { claimWithinReach, stateOf } from './service.js';
import { claimToWire } from './wire.js';

/** Loads are counted this many adjusters at a time. */
const LOAD_READS_AT_ONCE = 16;

const holdsAdjusterRole = (contact: Pick<ContactSummary, 'roleIds'>) => contact.roleIds.some((roleId) => roleId === CLAIMS_ADJUSTER_ROLE_ID || roleId === CLAIMS_MANAGER_ROLE_ID);

/** The contacts a pool names who may adjust claims (the Claims Adjuster or Claims Manager role, not terminated). */
async function eligibleOf(pool: AssignmentPool): Promise<ContactSummary[]> {
  if ('adjusters' in pool) {
    const named = await getContacts(pool.adjusters);
    return pool.adjusters.flatMap((id) => {
      const contact = named.get(id);
      return contact && !contact.terminated && holdsAdjusterRole(contact) ? [{ id: contact.id, name: contact.name, type: contact.type, roleIds: contact.roleIds, agencyIds: contact.agencyIds }] : [];
    });
  }
  const role = (await listRoles()).find((candidate) => candidate.name.toLowerCase() === pool.role.toLowerCase());
  if (!role) throw new ClaimRuleError(`The carrier's assignment rules name the role ${pool.role}, which the carrier does not have; assign the claim by hand with update_claim`);
  return (await contactsHoldingRole(role.id)).filter(holdsAdjusterRole);
}

async function loadsOf(people: readonly ContactSummary[]): Promise<Candidate[]> {
  const candidates: Candidate[] = [];
  for (let start = 0; start < people.length; start += LOAD_READS_AT_ONCE) {
    const slice = people.slice(start, start + LOAD_READS_AT_ONCE);
    const counts = await Promise.all(slice.map((person) => openClaimsOf(person.id)));
    slice.forEach((person, index) => candidates.push({ contactId: person.id, name: person.name, openClaims: counts[index] }));
  }
  return candidates;
}

const candidateToWire = (candidate: Candidate) => ({ contact_id: candidate.contactId, name: candidate.name, open_claims: candidate.openClaims });

export async function autoAssignClaim(principal: Principal, claimId: string, contributions: readonly ClaimMoveContribution[] = []) {
  const whole = await claimWithinReach(principal, claimId);
  const { claim } = whole;
  if (claim.status === 'closed') throw new ClaimRuleError(`claim_id: claim ${claim.claimNumber} is closed; reopen it before assigning it`);
  if (claim.adjusterContactId) {
    // A retried call, or a claim assigned by hand: it keeps its adjuster (update_claim changes him).
    const adjuster = (await getContacts([claim.adjusterContactId])).get(claim.adjusterContactId);
    return { ...claimToWire(claim), assignment: { assigned: false, adjuster_contact_id: claim.adjusterContactId, adjuster_name: adjuster?.name ?? null, reason: `Claim ${claim.claimNumber} is assigned already; update_claim with claim.adjuster_contact_id assigns it to someone else` } };
  }
  const rules = await getClaimsRules();
  const pool = assignmentPool(rules.assignment, claim);
  const candidates = await loadsOf(await eligibleOf(pool));
  const chosen = leastLoaded(candidates);
  if (!chosen) throw new ClaimRuleError(`No adjuster may take claim ${claim.claimNumber} (${claim.perilCode} in ${claim.state}): none of ${poolDescribed(pool)} holds the Claims Adjuster or Claims Manager role and is active; assign it by hand with update_claim`);
  const at = clock.now().toISOString();
  const after = { ...claim, adjusterContactId: chosen.contactId, updatedAt: at };
  const reason = `fewest open claims (${chosen.openClaims}) among ${poolDescribed(pool)}`;
  await commitClaimMove({
    kind: 'assigned',
    label: `Claim ${claim.claimNumber}`,
    at,
    by: principal.contactId,
    before: stateOf(whole),
    after: stateOf({ ...whole, claim: after }),
    changes: [{ field: 'adjusterContactId', from: null, to: chosen.contactId }],
    reason,
    note: `Claim ${claim.claimNumber} assigned to ${chosen.name}: ${reason}`.slice(0, 500),
    event: { type: 'claim.updated', data: { changed: ['adjusterContactId'], adjuster_contact_id: chosen.contactId } },
    contributions,
  });
  return {
    ...claimToWire({ ...after, version: claim.version + 1 }),
    assignment: { assigned: true, adjuster_contact_id: chosen.contactId, adjuster_name: chosen.name, reason, rule: pool.rule === null ? null : pool.rule + 1, candidates: candidates.map(candidateToWire) },
  };
}
