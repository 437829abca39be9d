import { z } from 'zod';
import { BusinessRuleError } from '../../../shared/platform/errors.js';
import { defineOperation } from '../../../shared/operation.js';
import { retrievePolicy } from '../../../shared/policies/policy-service.js';
import { optionalId, unlessBlank } from '../../../shared/policies/schemas.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'retrieve_policy',
  summary: 'A policy by id or number, with its active (or chosen) revision and term',
  permission: 'policies:read',
  input: z.object({
    policy_id: optionalId(),
    policy_number: unlessBlank(z.string().trim().min(1).optional()),
    revision_state: unlessBlank(z.enum(['open', 'committed', 'archived', 'pending']).optional()),
    revision_id: optionalId(),
  }),
  resources: { table: 'read' },
  handle: async (input, { principal }) => {
    if (!input.policy_id && !input.policy_number) throw new BusinessRuleError('policy_id: give policy_id or policy_number');
    return retrievePolicy(principal, input);
  },
});
