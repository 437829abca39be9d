import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { eitherOf, optional, optionalId } from '../../../shared/platform/request-fields.js';
import { listRefunds } from '../../../shared/billing/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'list_refunds',
  summary: "A policy's refunds (pending, approved, issued, voided), oldest first, in one state when asked; without policy_id, every refund in the state given across the book (payee, mailing address, amount, reason)",
  permission: 'refunds:read',
  input: () => z.object({
    policy_id: optionalId(),
    state: optional(z.enum(['pending', 'approved', 'issued', 'voided'], { error: 'must be pending, approved, issued or voided' })),
  }).check(eitherOf('state', 'policy_id')),
  resources: { table: 'read' },
  handle: async (input, { principal }) => ({ refunds: await listRefunds(principal, { ...(input.policy_id ? { policyId: input.policy_id } : {}), ...(input.state ? { state: input.state } : {}) }) }),
});
