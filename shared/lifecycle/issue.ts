/**
 * issue: commits a bound quote's revision. The one place where other areas hook into
 * issuing: every IssueContribution the entry file wires in receives the committed revision and answers
 * its writes (billing: invoices and account history; documents: the Declaration request),
 * which land in the SAME transaction as the commit, or none of them do.
 */
import { todayIso } from '../platform/dates.js';
import { BusinessRuleError } from '../platform/errors.js';
import type { Principal } from '../platform/principal.js';
import { policyWithinReach, revisionWithinReach } from '../policies/access.js';
import { issueWrites, runLifecycleTransaction } from '../policies/lifecycle-store.js';
import type { PolicyRecord, RevisionRecord } from '../policies/model.js';
import type { CommittedRevision, IssueContribution } from './model.js';

const TRANSACTION_LIMIT = 100;

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

export async function issuePolicy(
  principal: Principal,
  by: { policyId?: string; policyNumber?: string; billingScheduleId?: string },
  contributions: readonly IssueContribution[],
  now = new Date(),
) {
  const { policy } = await policyWithinReach(principal, by);
  const header = (await revisionWithinReach(principal, policy.activeRevisionId)).header;
  if (header.revisionState !== 'open' || header.policyStatus !== 'Submitted') {
    throw new BusinessRuleError(`Policy ${policy.policyNumber} is ${header.policyStatus} (revision ${header.revisionState}); only a bound (Submitted) quote can be issued`);
  }
  if (header.annualPremiumCents === 0 && header.annualFeeCents === 0) throw new BusinessRuleError(`Policy ${policy.policyNumber} is not rated; rate it before issuing`);
  const committed = committedRevision(policy, header, todayIso(now), by.billingScheduleId);
  const contributed = (await Promise.all(contributions.map((contribute) => contribute(committed)))).flat();
  const writes = [...issueWrites(header, policy, committed.commitDate), ...(contributed as Array<Record<string, unknown>>)];
  if (writes.length > TRANSACTION_LIMIT) throw new BusinessRuleError(`Issuing policy ${policy.policyNumber} needs ${writes.length} writes; at most ${TRANSACTION_LIMIT} fit one transaction`);
  await runLifecycleTransaction(writes, `Policy ${policy.policyNumber}`);
  return {
    policy_number: policy.policyNumber,
    policy_id: policy.id,
    commission_rate: Number(header.commissionRate),
    override_commission: header.overrideCommission,
  };
}
