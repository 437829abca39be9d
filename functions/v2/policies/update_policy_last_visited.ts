import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { boundedString, id, LIMITS, openObject, optionalId } from '../../../shared/platform/request-fields.js';
import { updatePolicyLastVisited } from '../../../shared/policies/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'update_policy_last_visited',
  summary: 'Remembers where the quote wizard was left for a policy (fully replaces what was stored)',
  permission: 'policies:write',
  input: () => z.object({
    policy_id: id(),
    params: openObject({
      lastQuoteWizardURL: z.optional(boundedString(LIMITS.textLength, { trim: false })),
      lastQuoteWizardStepId: z.optional(boundedString(LIMITS.idLength, { trim: false })),
    }),
    revision_id: optionalId(),
  }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => {
    await updatePolicyLastVisited(principal, input);
    return null;
  },
});
