/**
 * bind: submits a quote. Only an open, unsubmitted quote can be bound; anything else changes
 * nothing. The contributions listed for it (shared/moves/bind.ts: search's status, the event)
 * land in the submit's transaction.
 */
import { readMoratoriums, refuseUnderMoratoriums } from '../moratoriums/index.js';
import { BusinessRuleError } from '../platform/errors.js';
import type { Principal } from '../platform/principal.js';
import { runTransaction } from '../platform/transactions.js';
import { clock } from '../platform/clock.js';
import { joinedWrites, type Contribution } from './joining.js';
import type { BoundQuote } from './model.js';
import { isRated, policyAndActiveRevisionWithinReach, ratedInMemory, type RevisionRating, type RevisionSnapshot } from '../policies/index.js';

/**
 * What bind and issue both ask before a quote goes on: its premium must be current. A quote
 * whose premium a change made stale is rated here rather than refused, so bind and issue never
 * disagree about whether it can go on; the rating (totals, items and their trace) is stored by
 * the move's own transaction, with the submit or the commit, or not at all. A quote rating
 * leaves at nothing is refused.
 */
export async function currentlyRated(snapshot: RevisionSnapshot, policyNumber: string): Promise<{ snapshot: RevisionSnapshot; rating?: RevisionRating }> {
  const current = isRated(snapshot) ? { snapshot } : await ratedInMemory(snapshot);
  const { header } = current.snapshot;
  if (header.annualPremiumCents === 0 && header.annualFeeCents === 0) throw new BusinessRuleError(`Policy ${policyNumber} rates at no premium; check its coverages before binding or issuing it`);
  return current;
}

/** What the bind move asks of the areas: their parts in the submit. */
export interface BindWiring {
  bind: readonly Contribution<BoundQuote>[];
}

export async function bindPolicy(wiring: BindWiring, principal: Principal, by: { policyId?: string; policyNumber?: string }) {
  const moratoriums = readMoratoriums();
  const { policy, snapshot } = await policyAndActiveRevisionWithinReach(principal, by);
  if (snapshot.header.revisionState !== 'open' || snapshot.header.policyStatus !== 'Unsubmitted') {
    throw new BusinessRuleError(`Policy ${policy.policyNumber} is ${snapshot.header.policyStatus} (revision ${snapshot.header.revisionState}); only an unsubmitted quote can be bound`);
  }
  await refuseUnderMoratoriums(principal, { block: 'new_business', operation: 'bind', revision: snapshot, moratoriums, quoteCreatedAt: policy.dateAdded });
  const { snapshot: rated, rating } = await currentlyRated(snapshot, policy.policyNumber);
  const header = rated.header;
  const bound: BoundQuote = { policyId: policy.id, policyNumber: policy.policyNumber, termId: header.policyTermId, revisionId: header.id, ...(policy.agencyId ? { agencyId: policy.agencyId } : {}), revision: header, boundAt: clock.now().toISOString(), ...(rating ? { rating } : {}) };
  await runTransaction(await joinedWrites(wiring.bind, bound), { label: `Policy ${policy.policyNumber}` });
  return { policy_id: policy.id, policy_number: policy.policyNumber, status: 'Submitted' };
}
