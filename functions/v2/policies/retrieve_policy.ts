import { z } from 'zod';
import { BusinessRuleError } from '../../../shared/platform/errors.js';
import { defineOperation } from '../../../shared/platform/operation.js';
import { retrievePolicy } from '../../../shared/policies/policy-service.js';
import { id } from '../../../shared/policies/schemas.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'retrieve_policy',
  summary: 'A policy by id or number, with its active (or chosen) revision and term',
  permission: 'policies:read',
  input: z.object({
    policy_id: id().optional(),
    policy_number: z.string().trim().min(1).optional(),
    revision_state: z.enum(['open', 'committed', 'archived', 'pending']).optional(),
    revision_id: id().optional(),
  }),
  resources: { table: 'read' },
  handle: async (input, { principal }) => {
    if (!input.policy_id && !input.policy_number) throw new BusinessRuleError('policy_id: give policy_id or policy_number');
    return retrievePolicy(principal, input);
  },
});
