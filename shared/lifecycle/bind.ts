/** bind: submits a quote. Only an open, unsubmitted quote can be bound; anything else changes nothing. */
import { eventWrite } from '../events/index.js';
import { BusinessRuleError } from '../platform/errors.js';
import type { Principal } from '../platform/principal.js';
import { runTransaction } from '../platform/transactions.js';
import { bindWrites, policyWithinReach, revisionWithinReach } from '../policies/index.js';

export async function bindPolicy(principal: Principal, by: { policyId?: string; policyNumber?: string }) {
  const { policy } = await policyWithinReach(principal, by);
  const snapshot = await revisionWithinReach(principal, policy.activeRevisionId);
  const header = snapshot.header;
  if (header.revisionState !== 'open' || header.policyStatus !== 'Unsubmitted') {
    throw new BusinessRuleError(`Policy ${policy.policyNumber} is ${header.policyStatus} (revision ${header.revisionState}); only an unsubmitted quote can be bound`);
  }
  const bound = eventWrite({ type: 'policy.bound', policyId: policy.id, policyNumber: policy.policyNumber, agencyId: policy.agencyId, transactionId: header.id, data: { term_id: header.policyTermId } });
  await runTransaction([...bindWrites(header), bound], { label: `Policy ${policy.policyNumber}` });
  return { policy_id: policy.id, policy_number: policy.policyNumber, status: 'Submitted' };
}
