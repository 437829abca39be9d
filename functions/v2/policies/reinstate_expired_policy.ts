import * as z from 'zod/mini';
import { defineIdempotentOperation } from '../../../shared/define-operation.js';
import { reinstateExpiredPolicyMove } from '../../../shared/moves/renew.js';
import { id, name } from '../../../shared/platform/request-fields.js';
import { toAmount } from '../../../shared/platform/money.js';
import { moneyPathTracing } from '../../../shared/platform/tracing.js';

export const handler = defineIdempotentOperation({
  version: 'v2',
  name: 'reinstate_expired_policy',
  summary:
    'Gives an expired policy whose renewal was never made (non-renewed by mistake, say) its renewal term as the nightly run would have made it, in force from the old term\'s end, billed and declared',
  permission: 'policies:write',
  input: () => z.object({ policy_id: id(), reason: name() }),
  resources: { table: 'write' },
  tracing: moneyPathTracing,
  // The renewal's invoices are money: a retry with the same Idempotency-Key answers the first result.
  idempotent: { scope: 'reinstate_expired_policy', inProgress: 'The reinstatement sent earlier with this Idempotency-Key is still being made' },
  handle: async (input, { principal }) => {
    const decided = await reinstateExpiredPolicyMove(principal, { policyId: input.policy_id, reason: input.reason });
    return {
      policy_number: decided.policyNumber,
      message: decided.detail,
      renewal_term_id: decided.renewalTermId ?? null,
      renewal_revision_id: decided.renewalRevisionId ?? null,
      renewal_premium: decided.premium === undefined ? null : toAmount(decided.premium),
    };
  },
});
