/**
 * The reverse move (reverse_revision): a change issued by mistake undone by a new endorsement,
 * dated as the one it reverses, whose coverage is the revision before it. It is issued the way
 * every endorsement is (the endorse move's plan and transaction), so its premium is the exact
 * negative of the reversed one, item by item, and its installments are re-spread back; its
 * contributions are the reverse move's own (a Declaration and an event that say it reverses).
 * Only the latest change of a live term can be reversed, and a reversal cannot be.
 */
import { randomUUID } from 'node:crypto';
import { clock } from '../platform/clock.js';
import { todayIso } from '../platform/dates.js';
import { BusinessRuleError, NotFoundError } from '../platform/errors.js';
import { formatCents } from '../platform/money.js';
import type { Principal } from '../platform/principal.js';
import {
  createOpenRevision,
  endorsementCopy,
  inEffectOrder,
  loadRevision,
  policyWithinReach,
  revisionWithinReach,
  termRevisionFacts,
  type TermRecord,
} from '../policies/index.js';
import { discardEndorsement, issueEndorsement, type EndorseWiring } from './endorse.js';
import type { Contribution } from './joining.js';
import type { EndorsedRevision, RenewalRewrite, ReversedRevision } from './model.js';

/** What the reverse move asks of the areas: their parts in the reversing endorsement. */
export interface ReverseWiring {
  reverse: readonly Contribution<ReversedRevision>[];
  /**
   * The reversal carried into a committed renewal of the term, as an endorsement of the renewal
   * (renewal-carry.ts): the same parts but the mark on the reversed endorsement, which the
   * reversal itself writes, once (a transaction may not name that record twice).
   */
  carriedIntoRenewal: readonly Contribution<ReversedRevision>[];
  /** The renewal revision the reversal is carried into, rewritten as any endorsement's change does it (endorse.ts). */
  renewalRewrite: readonly Contribution<RenewalRewrite>[];
  /** What the parts read of the term, begun beside the endorse move's reads (EndorseWiring.readAhead). */
  readAhead?: EndorseWiring['readAhead'];
}

/** A change that cannot be reversed now: not the latest, itself a reversal, a term no longer live. */
export class RevisionNotReversibleError extends BusinessRuleError {}

export interface ReverseRequest {
  revisionId: string;
}

/** The reversal's facts: the endorsement's, saying what it reverses; its note says so too. */
function reversalOf(endorsed: EndorsedRevision, reversed: { id: string; revisionDate: string }): ReversedRevision {
  const premium = `${endorsed.premiumChangeCents < 0 ? 'return' : 'additional'} premium ${formatCents(Math.abs(endorsed.premiumChangeCents))}`;
  return {
    ...endorsed,
    reversesRevisionId: reversed.id,
    reversesRevisionDate: reversed.revisionDate,
    summary: `Endorsement effective ${reversed.revisionDate} (revision ${reversed.id}) reversed by revision ${endorsed.revisionId}; ${premium}`,
  };
}

/** The reversal carried into the renewal: the carry's own facts (the renewal's revision, its dates and premium), saying which change it reverses. */
function carriedReversalOf(carried: EndorsedRevision, reversed: { id: string; revisionDate: string }): ReversedRevision {
  return { ...carried, reversesRevisionId: reversed.id, reversesRevisionDate: reversed.revisionDate, summary: `${carried.summary}; it reverses the endorsement effective ${reversed.revisionDate} (revision ${reversed.id})` };
}

/** The term's committed revisions in effect order, the one to reverse last of them, and the one before it. */
async function reversible(principal: Principal, revisionId: string) {
  const { header } = await revisionWithinReach(principal, revisionId);
  if (!header.endorsement || header.revisionState !== 'committed') throw new RevisionNotReversibleError(`revision_id: revision ${header.id} is not an issued endorsement; only an issued change can be reversed`);
  if (header.endorsement.reversesRevisionId) throw new RevisionNotReversibleError(`revision_id: revision ${header.id} is a reversal (of ${header.endorsement.reversesRevisionId}); a reversal cannot itself be reversed`);
  const { policy, terms } = await policyWithinReach(principal, { policyId: header.policyId });
  const term = terms.find((candidate) => candidate.id === header.policyTermId);
  if (!term) throw new NotFoundError(`Policy term ${header.policyTermId}`);
  const committed = (await termRevisionFacts(term)).filter((facts) => facts.revisionState === 'committed');
  if ((term as TermRecord & { cancellationStatus?: string }).cancellationStatus === 'cancelled' || committed.some((facts) => facts.policyStatus === 'Cancelled')) {
    throw new RevisionNotReversibleError(`revision_id: policy ${policy.policyNumber}'s term ${term.effectiveDate} to ${term.expirationDate} is cancelled; a change of a cancelled term cannot be reversed`);
  }
  if (committed.some((facts) => facts.policyStatus === 'Expired')) {
    throw new RevisionNotReversibleError(`revision_id: policy ${policy.policyNumber}'s term ${term.effectiveDate} to ${term.expirationDate} is expired; a change of an expired term cannot be reversed`);
  }
  const chain = inEffectOrder(committed);
  const at = chain.findIndex((facts) => facts.id === header.id);
  const latest = chain.at(-1)!;
  if (latest.id !== header.id) {
    throw new RevisionNotReversibleError(`revision_id: revision ${header.id} is not the latest change of the term (revision ${latest.id}, effective ${latest.revisionDate}, is later); reverse that one first`);
  }
  if (at < 1) throw new RevisionNotReversibleError(`revision_id: revision ${header.id} has no revision before it to restore`);
  return { header, term, before: chain[at - 1] };
}

/**
 * Reverses the latest change: an open endorsement dated as it, a copy of the revision before it,
 * opened on it (so the endorse move restores exactly that coverage), then issued with the reverse
 * move's contributions. If issuing fails, the open reversal is removed: nothing is left behind.
 */
export async function reverseRevision(wiring: ReverseWiring, principal: Principal, request: ReverseRequest, options: { now?: () => Date } = {}) {
  const { header, term, before } = await reversible(principal, request.revisionId);
  const restored = await loadRevision(before.id);
  if (!restored) throw new NotFoundError(`Revision ${before.id}`);
  const now = options.now?.() ?? clock.now();
  const copy = endorsementCopy(restored, { revisionId: randomUUID(), revisionDate: header.revisionDate, today: todayIso(now), newId: randomUUID });
  copy.header = { ...copy.header, description: 'Reversal', endorsement: { baseRevisionId: header.id, reversesRevisionId: header.id } };
  await createOpenRevision(copy, term);
  const reversed = { id: header.id, revisionDate: header.revisionDate };
  const asEndorsement: EndorseWiring = {
    endorse: wiring.reverse.map((contribute) => (endorsed: EndorsedRevision, mode) => contribute(reversalOf(endorsed, reversed), mode)),
    carriedIntoRenewal: wiring.carriedIntoRenewal.map((contribute) => (carried: EndorsedRevision, mode) => contribute(carriedReversalOf(carried, reversed), mode)),
    renewalRewrite: wiring.renewalRewrite,
    ...(wiring.readAhead ? { readAhead: wiring.readAhead } : {}),
  };
  try {
    const answer = await issueEndorsement(asEndorsement, principal, { revisionId: copy.header.id, policyId: header.policyId }, options);
    return { ...answer, reverses_revision_id: header.id };
  } catch (error) {
    await discardEndorsement(principal, { revisionId: copy.header.id, action: 'delete' }).catch(() => undefined);
    throw error;
  }
}
