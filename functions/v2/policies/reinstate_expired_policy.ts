import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/operation.js';
import { moves } from '../../../shared/moves.js';
import { id, name } from '../../../shared/platform/request-fields.js';
import { toAmount } from '../../../shared/platform/money.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'reinstate_expired_policy',
  summary:
    'Gives an expired policy whose renewal was never made (non-renewed by mistake, say) its renewal term as the nightly run would have made it, in force from the old term\'s end, billed and declared',
  permission: 'policies:write',
  input: z.object({ policy_id: id(), reason: name() }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => {
    const decided = await moves.reinstateExpiredPolicy(principal, { policyId: input.policy_id, reason: input.reason });
    return {
      policy_number: decided.policyNumber,
      message: decided.detail,
      renewal_term_id: decided.renewalTermId ?? null,
      renewal_revision_id: decided.renewalRevisionId ?? null,
      renewal_premium: decided.premium === undefined ? null : toAmount(decided.premium),
    };
  },
});
