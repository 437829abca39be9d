/**
 * Where a revision is committed, and handed on. Billing (the installment schedule, the
 * account history) and documents (the declaration, the print queue) join here as
 * CommitFollowers: each turns the committed revision into writes of its own area, and
 * those writes land in the one transaction that commits the revision, or none of it does.
 * The operations that commit (issue, bind, endorse) check the caller's reach and their
 * own rules first, then call commitRevision.
 */
import { todayIso } from '../platform/dates.js';
import { NotFoundError } from '../platform/errors.js';
import type { CommitFollower, CommittedRevision, RevisionChange, RevisionSnapshot } from './model.js';
import { snapshotAfter } from './revision-snapshot.js';
import { RevisionNotOpenError, changeRevision, getPolicyWithTerms } from './store.js';

export async function commitRevision(snapshot: RevisionSnapshot, followers: readonly CommitFollower[] = [], now = new Date()): Promise<CommittedRevision> {
  const header = snapshot.header;
  if (header.revisionState !== 'open') throw new RevisionNotOpenError(header.id, header.revisionState);
  const found = await getPolicyWithTerms(header.policyId);
  const term = found?.terms.find((candidate) => candidate.id === header.policyTermId);
  if (!found || !term) throw new NotFoundError(`The policy of revision ${header.id}`);
  const commitDate = todayIso(now);
  const change: RevisionChange = { header: { revisionState: 'committed', commitDate } };
  const committed: CommittedRevision = { policy: found.policy, term, revision: snapshotAfter(snapshot, change), commitDate };
  await changeRevision(header, { ...change, handedWrites: followers.flatMap((follower) => follower.writesFor(committed)) });
  return committed;
}
