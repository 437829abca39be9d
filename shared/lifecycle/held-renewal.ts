/**
 * A renewal held for review that can no longer be committed (its expiring term expired, was
 * non-renewed or cancelled while it waited): what archiving it needs, for the move that does.
 */
import { revisionHeaders, type ArchivedHeldRenewal, type RevisionRecord, type TermRecord } from '../policies/index.js';

/** The held renewal of `term`, if any: its open revision, its term, and the review state search shows again once it is gone (`inForce`'s). */
export async function heldRenewalOf(term: TermRecord, terms: readonly TermRecord[], inForce: Pick<RevisionRecord, 'underwriting'>): Promise<ArchivedHeldRenewal | undefined> {
  if (term.renewal?.state !== 'held') return undefined;
  const revision = (await revisionHeaders([term.renewal.revisionId]))[0];
  const renewalTerm = terms.find((candidate) => candidate.id === term.renewal!.termId);
  if (revision?.revisionState !== 'open' || !renewalTerm) return undefined;
  return { revision, term: renewalTerm, reviewStateInForce: inForce.underwriting?.reviewState ?? 'NOT_STARTED' };
}
