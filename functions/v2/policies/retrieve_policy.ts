import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { eitherOf, id, optional, optionalId } from '../../../shared/platform/request-fields.js';
import { retrievePolicy } from '../../../shared/policies/index.js';
import { policyClaims } from '../../../shared/claims/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'retrieve_policy',
  summary: 'A policy by id or number, with its active (or chosen) revision and term, and the claims of every term (britecore_claims: number, loss date, status, peril)',
  permission: 'policies:read',
  input: () => z
    .object({
      policy_id: optionalId(),
      policy_number: optional(id()),
      revision_state: optional(z.enum(['open', 'committed', 'archived', 'pending'])),
      revision_id: optionalId(),
    })
    .check(eitherOf('policy_id', 'policy_number')),
  resources: { table: 'read' },
  handle: async (input, { principal }) => {
    // Given its id, the policy's claims are read beside it; given its number, after it.
    const claimsBeside = input.policy_id ? policyClaims(input.policy_id) : undefined;
    claimsBeside?.catch(() => undefined);
    const policy = await retrievePolicy(principal, input);
    return { ...policy, britecore_claims: await (claimsBeside ?? policyClaims(policy.id)) };
  },
});
