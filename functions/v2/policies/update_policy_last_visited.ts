import { z } from 'zod';
import { defineOperation } from '../../../shared/operation.js';
import { updatePolicyLastVisited } from '../../../shared/policies/item-service.js';
import { id, optionalId } from '../../../shared/policies/schemas.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'update_policy_last_visited',
  summary: 'Remembers where the quote wizard was left for a policy (fully replaces what was stored)',
  permission: 'policies:write',
  input: z.object({
    policy_id: id(),
    params: z.looseObject({ lastQuoteWizardURL: z.string().optional(), lastQuoteWizardStepId: z.string().optional() }),
    revision_id: optionalId(),
  }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => {
    await updatePolicyLastVisited(principal, input);
    return null;
  },
});
