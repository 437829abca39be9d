/**
 * Loading what a request names, within the caller's reach: a record out of
 * reach answers exactly like an unknown id. The policies services take the
 * caller's type from here, so that only this module knows where it lives.
 */
import { reaches, type Principal } from '../platform/principal.js';
import { NotFoundError } from '../platform/errors.js';
import type { PolicyRecord, RevisionSnapshot, RiskRecord, TermRecord } from './model.js';
import { firstRevisionIdOf } from './revision-ids.js';
import { RevisionNotOpenError, findLocator, findPolicyIdByNumber, getPolicy, getPolicyWithTerms, loadRevision } from './store.js';

export type { Principal };

export async function policyWithinReach(
  principal: Principal,
  by: { policyId?: string | null; policyNumber?: string | null },
): Promise<{ policy: PolicyRecord; terms: TermRecord[] }> {
  const { policy, terms } = await policyWithinReachWith(principal, by, async () => undefined);
  return { policy, terms };
}

/**
 * policyWithinReach, with a read of the caller's that needs only the policy's id begun beside the
 * policy's own (not after it); its result is given only when the policy is within reach.
 */
export async function policyWithinReachWith<T>(
  principal: Principal,
  by: { policyId?: string | null; policyNumber?: string | null },
  beside: (policyId: string) => Promise<T>,
): Promise<{ policy: PolicyRecord; terms: TermRecord[]; beside: T }> {
  const { policyId, label } = await policyIdNamed(by);
  const besideRead = beside(policyId);
  besideRead.catch(() => undefined);
  const found = await getPolicyWithTerms(policyId);
  if (!found || found.policy.retired || !reaches(principal, found.policy)) throw new NotFoundError(label);
  return { ...found, beside: await besideRead };
}

/** The policy record alone (one item, not its terms), within reach: for a move that needs no term (bind, issue); answers as policyWithinReach. */
export async function policyRecordWithinReach(principal: Principal, by: { policyId?: string | null; policyNumber?: string | null }): Promise<{ policy: PolicyRecord }> {
  const { policyId, label } = await policyIdNamed(by);
  return { policy: policyReadWithinReach(principal, label, await getPolicy(policyId)) };
}

/**
 * A policy and its active revision whole, both within reach, read together where they can be:
 * a new policy's quote revision has an id that follows from the policy's (revision-ids.ts), so
 * bind and issue read it beside the policy; any other active revision is read after it.
 */
export async function policyAndActiveRevisionWithinReach(principal: Principal, by: { policyId?: string | null; policyNumber?: string | null }): Promise<{ policy: PolicyRecord; snapshot: RevisionSnapshot }> {
  const { policyId, label } = await policyIdNamed(by);
  const quoteRevisionId = firstRevisionIdOf(policyId);
  const quoteRevision = loadRevision(quoteRevisionId);
  quoteRevision.catch(() => undefined);
  const policy = policyReadWithinReach(principal, label, await getPolicy(policyId));
  const snapshot = policy.activeRevisionId === quoteRevisionId ? await quoteRevision : await loadRevision(policy.activeRevisionId);
  return { policy, snapshot: readWithinReach(principal, policy.activeRevisionId, snapshot) };
}

/** A policy read, refused as not found when it is absent, a retired quote, or out of the caller's reach. */
function policyReadWithinReach(principal: Principal, label: string, policy: PolicyRecord | undefined): PolicyRecord {
  if (!policy || policy.retired || !reaches(principal, policy)) throw new NotFoundError(label);
  return policy;
}

async function policyIdNamed(by: { policyId?: string | null; policyNumber?: string | null }): Promise<{ policyId: string; label: string }> {
  const policyId = by.policyId || (by.policyNumber ? await findPolicyIdByNumber(by.policyNumber) : undefined);
  const label = by.policyId ? `Policy ${by.policyId}` : `Policy number ${by.policyNumber ?? ''}`.trim();
  if (!policyId) throw new NotFoundError(label);
  return { policyId, label };
}

export async function revisionWithinReach(principal: Principal, revisionId: string, options: { open?: boolean } = {}): Promise<RevisionSnapshot> {
  const snapshot = readWithinReach(principal, revisionId, await loadRevision(revisionId));
  if (options.open && snapshot.header.revisionState !== 'open') throw new RevisionNotOpenError(revisionId, snapshot.header.revisionState);
  return snapshot;
}

/** A revision read, refused as not found when it is absent, a retired quote's, or out of the caller's reach. */
function readWithinReach(principal: Principal, revisionId: string, snapshot: RevisionSnapshot | undefined): RevisionSnapshot {
  if (!snapshot || snapshot.header.retired || !reaches(principal, snapshot.header)) throw new NotFoundError(`Revision ${revisionId}`);
  return snapshot;
}

/** A risk (property) and its whole revision. */
export async function riskWithinReach(
  principal: Principal,
  riskId: string,
  options: { open?: boolean; label?: string } = {},
): Promise<{ snapshot: RevisionSnapshot; risk: RiskRecord }> {
  const label = `${options.label ?? 'Property'} ${riskId}`;
  const locator = await findLocator(riskId);
  if (!locator || locator.kind !== 'risk') throw new NotFoundError(label);
  const snapshot = await loadRevision(locator.revisionId);
  const risk = snapshot?.risks.find((candidate) => candidate.id === riskId);
  if (!snapshot || !risk || snapshot.header.retired || !reaches(principal, snapshot.header)) throw new NotFoundError(label);
  if (options.open && snapshot.header.revisionState !== 'open') throw new RevisionNotOpenError(snapshot.header.id, snapshot.header.revisionState);
  return { snapshot, risk };
}

/** The revision holding a sub line instance or a mortgagee record. */
export async function partWithinReach(
  principal: Principal,
  id: string,
  kind: 'subline' | 'mortgagee',
  label: string,
): Promise<RevisionSnapshot> {
  const locator = await findLocator(id);
  if (!locator || locator.kind !== kind) throw new NotFoundError(`${label} ${id}`);
  const snapshot = await loadRevision(locator.revisionId);
  if (!snapshot || snapshot.header.retired || !reaches(principal, snapshot.header)) throw new NotFoundError(`${label} ${id}`);
  if (snapshot.header.revisionState !== 'open') throw new RevisionNotOpenError(snapshot.header.id, snapshot.header.revisionState);
  return snapshot;
}
