/**
 * A renewal term cancelled with the term it renews (cancel.ts): loaded by the first cancellation
 * that meets one, so a cancel's cold start does not parse it. It throws none of the errors the
 * operation factory maps (modules-on-first-use.ts): what it may refuse, the move refused before.
 */
import { randomUUID } from 'node:crypto';
import { formatCents } from '../platform/money.js';
import type { RevisionSnapshot, TermRecord } from '../policies/index.js';
import type { CancelWiring } from './cancel.js';
import { joinedWrites } from './joining.js';
import type { CancelledTerm, TermAsRead } from './model.js';

/**
 * A term cancelled after its renewal was made: the renewal term, not yet in force, is cancelled
 * with it, flat on its first day (everything it billed is returned), in the same transaction:
 * its own revision, account rows, notice and note. It would otherwise come into force, and bill,
 * for a policy that no longer exists. The renewal term keeps which term it was cancelled with:
 * reinstating that term reinstates it too (reinstate.ts), while a renewal cancelled on its own stays.
 * Its revisions and its parts' reads were begun with the term's (renewalCancelledWith, termRead).
 */
export async function renewalCancelledWithTerm(wiring: CancelWiring, context: { term: TermRecord; renewal: { term: TermRecord; revisions: Promise<RevisionSnapshot[]> }; cancelled: CancelledTerm & { asRead: NonNullable<CancelledTerm['asRead']> } }) {
  const { term, renewal, cancelled } = context;
  const { term: renewalTerm } = renewal;
  const revisions = await renewal.revisions;
  const base = revisions.at(-1)?.header;
  if (!base) return [];
  const cancelDate = renewalTerm.effectiveDate;
  const asRead: TermAsRead = { term: renewalTerm, revisions, reads: cancelled.asRead.reads };
  const figures = await wiring.reads.cancellationFigures({ policyId: cancelled.policyId, termId: renewalTerm.id, revisionId: base.id, effectiveDate: renewalTerm.effectiveDate, expirationDate: renewalTerm.expirationDate, cancelDate, decisionDate: cancelled.decisionDate, asRead });
  const newRevisionId = randomUUID();
  const renewalCancelled: CancelledTerm = {
    ...cancelled,
    termId: renewalTerm.id,
    termEffectiveDate: renewalTerm.effectiveDate,
    termExpirationDate: renewalTerm.expirationDate,
    revisionId: newRevisionId,
    inForceRevisionId: base.id,
    cancelDate,
    returnPremiumCents: figures.returnPremiumCents,
    yieldsToPending: false,
    cancelledWithTermId: term.id,
    decidedAt: new Date(Date.parse(cancelled.decidedAt) + 10).toISOString(),
    summary: `Renewal term ${renewalTerm.effectiveDate} to ${renewalTerm.expirationDate} cancelled with the term it renews (flat); return premium ${formatCents(figures.returnPremiumCents)}`,
    asRead: { ...asRead, policy: cancelled.asRead.policy },
    cancellationRecords: { term: renewalTerm, inForceRevision: base, committed: revisions.map((snapshot) => snapshot.header) },
  };
  return joinedWrites(wiring.cancel, renewalCancelled);
}

