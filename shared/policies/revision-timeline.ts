/**
 * A term's revisions as retrieve_policy and retrieve_policy_terms show them, beyond the vendor:
 * each with the state it is shown in (a committed revision replaced by a later one is
 * `superseded` and keeps its earlier period), the days it is in force and the premium change
 * its endorsement billed. No I/O.
 */
import { toAmount } from '../platform/money.js';
import { revisionPeriods } from './endorsement-rules.js';
import type { RevisionRecord, TermRecord } from './model.js';
import { termToWire } from './wire.js';

export function termWithRevisionPeriods(term: TermRecord, revisions: readonly RevisionRecord[]) {
  const wire = termToWire(term, revisions);
  const periods = new Map(
    revisionPeriods(term, revisions.map((revision) => ({ id: revision.id, revisionState: revision.revisionState, revisionDate: revision.revisionDate, committedAt: revision.endorsement?.committedAt ?? revision.commitDate ?? '' })))
      .map((period) => [period.id, period]),
  );
  return {
    ...wire,
    revisions: wire.revisions.map((shown, index) => {
      const revision = revisions[index];
      const period = periods.get(revision.id);
      return {
        ...shown,
        status: period?.state ?? revision.revisionState,
        in_force_from: period?.from ?? null,
        in_force_to: period?.to ?? null,
        premium_change: revision.endorsement?.premiumChangeCents === undefined ? null : toAmount(revision.endorsement.premiumChangeCents),
      };
    }),
  };
}
