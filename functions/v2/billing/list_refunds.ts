import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { id, optional } from '../../../shared/platform/request-fields.js';
import { listRefunds } from '../../../shared/billing/refunds.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'list_refunds',
  summary: "A policy's refunds (pending, approved, issued, voided), oldest first, in one state when asked",
  permission: 'refunds:read',
  input: z.object({
    policy_id: id(),
    state: optional(z.enum(['pending', 'approved', 'issued', 'voided'])),
  }),
  resources: { table: 'read' },
  handle: async (input, { principal }) => ({ refunds: await listRefunds(principal, { policyId: input.policy_id, ...(input.state ? { state: input.state } : {}) }) }),
});
