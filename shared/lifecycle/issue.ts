/**
 * issue: commits a bound quote's revision. Every contribution listed for it
 * (shared/moves/issue.ts) receives the committed revision and answers its writes (billing: the
 * account and invoices; documents: the Declaration), which land in the SAME transaction as
 * the commit, or none of them do. The commit date is the move's decision date.
 */
import { todayIso } from '../platform/dates.js';
import { clock } from '../platform/clock.js';
import { readMoratoriums, refuseUnderMoratoriums } from '../moratoriums/index.js';
import { BusinessRuleError } from '../platform/errors.js';
import type { Principal } from '../platform/principal.js';
import { runTransaction, TRANSACTION_ITEM_LIMIT } from '../platform/transactions.js';
import { policyAndActiveRevisionWithinReach, type PolicyRecord, type RevisionRecord } from '../policies/index.js';
import { currentlyRated } from './bind.js';
import type { DecisionOptions } from './cancel.js';
import { joinedWrites, joinMove, previewsOf, writesOf, type Contribution } from './joining.js';
import type { CommittedRevision, IssuedRevision } from './model.js';
import { recordMoneyMove } from '../platform/metrics.js';

export interface IssueRequest {
  policyId?: string;
  policyNumber?: string;
  billingScheduleId?: string;
  /** issue_info.commission_rate (percent) with override_commission: this policy's rate instead of its agency's schedule. */
  commissionOverrideRate?: string;
}

export function committedRevision(policy: PolicyRecord, header: RevisionRecord, commitDate: string, billingScheduleId?: string): CommittedRevision {
  return {
    policyId: policy.id,
    policyNumber: policy.policyNumber,
    termId: header.policyTermId,
    revisionId: header.id,
    policyTypeId: header.policyTypeId,
    effectiveDate: header.termStart,
    expirationDate: header.termEnd,
    commitDate,
    annualPremiumCents: header.annualPremiumCents,
    annualFeeCents: header.annualFeeCents,
    writtenPremiumCents: header.writtenPremiumCents,
    writtenFeeCents: header.writtenFeeCents,
    ...(billingScheduleId ? { billingScheduleId } : {}),
    ...(policy.agencyId ? { agencyId: policy.agencyId } : {}),
    namedInsuredContactIds: [...header.contacts.namedInsuredIds],
  };
}

/**
 * What the issue move asks of the areas: the policies area's commit of the revision (it records
 * the commission rate the other parts fixed, so it is asked after them; its writes lead the
 * transaction), and their parts in the commit (billing's account and invoices, the Declaration,
 * search, the event, commissions, the books).
 */
export interface IssueWiring {
  commit: readonly Contribution<IssuedRevision>[];
  issue: readonly Contribution<CommittedRevision>[];
  /** Reads an area's part needs at the commit, begun beside the move's own reads rather than after them (the books' closed months). */
  readAhead?: readonly (() => void)[];
}

export async function issuePolicy(wiring: IssueWiring, principal: Principal, by: IssueRequest, options: DecisionOptions = {}) {
  const now = options.now ?? clock.now();
  const moratoriums = readMoratoriums();
  for (const begin of wiring.readAhead ?? []) begin();
  const { policy, snapshot } = await policyAndActiveRevisionWithinReach(principal, by);
  if (snapshot.header.revisionState !== 'open' || snapshot.header.policyStatus !== 'Submitted') {
    throw new BusinessRuleError(`Policy ${policy.policyNumber} is ${snapshot.header.policyStatus} (revision ${snapshot.header.revisionState}); only a bound (Submitted) quote can be issued`);
  }
  await refuseUnderMoratoriums(principal, { block: 'new_business', operation: 'issue', revision: snapshot, moratoriums, quoteCreatedAt: policy.dateAdded, boundAt: snapshot.header.boundAt, at: now });
  const { snapshot: ratedSnapshot, rating } = await currentlyRated(snapshot, policy.policyNumber);
  const rated = ratedSnapshot.header;
  const header = by.commissionOverrideRate !== undefined ? { ...rated, commissionRate: by.commissionOverrideRate, overrideCommission: true } : rated;
  const committed: CommittedRevision = {
    ...committedRevision(policy, header, todayIso(now), by.billingScheduleId),
    ...(by.commissionOverrideRate !== undefined ? { commissionOverrideRate: by.commissionOverrideRate } : {}),
    // The parts start from the revision and policy as read here, rated: a quote rated just now is stored so by this move's transaction.
    asRead: { revision: ratedSnapshot, policy },
  };
  const parts = await joinMove(wiring.issue, committed);
  // The rate the agency's commission was fixed at (the commissions part says it): the revision records it as the vendor's commission_rate.
  const fixed = (previewsOf(parts).commissions as { commissionRate?: string } | undefined)?.commissionRate;
  const recorded = fixed !== undefined ? { ...header, commissionRate: fixed } : header;
  const issued: IssuedRevision = {
    ...committed,
    issueRecords: { revision: header, policy, committed: { at: now.toISOString(), by: principal.contactId }, ...(recorded === rated ? {} : { commission: { commissionRate: recorded.commissionRate, overrideCommission: recorded.overrideCommission } }), ...(rating ? { rating } : {}) },
  };
  const writes = [...(await joinedWrites(wiring.commit, issued)), ...writesOf(parts)];
  await runTransaction(writes, {
    label: `Policy ${policy.policyNumber}`,
    tooLarge: (count) => new BusinessRuleError(`Issuing policy ${policy.policyNumber} needs ${count} writes; at most ${TRANSACTION_ITEM_LIMIT} fit one transaction`),
  });
  await recordMoneyMove('PoliciesIssued');
  return {
    policy_number: policy.policyNumber,
    policy_id: policy.id,
    commission_rate: Number(recorded.commissionRate),
    override_commission: recorded.overrideCommission,
  };
}
