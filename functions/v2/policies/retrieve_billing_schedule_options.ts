import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { freeFormValue, id, optional, optionalId } from '../../../shared/platform/request-fields.js';
import { scheduleOptions } from '../../../shared/billing/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'retrieve_billing_schedule_options',
  summary: "Every billing schedule of the product with its installments (amounts, bill and due dates, details) for the policy's premium and fees",
  permission: 'billing:read',
  input: () => z.object({
    policy_number: id(),
    policy_term_id: optionalId(),
    // Sent by existing clients; every schedule is offered to every caller here.
    ignore_billing_schedule_roles: optional(freeFormValue()),
  }),
  resources: { table: 'read' },
  handle: async (input, { principal }) => scheduleOptions(principal, { policyNumber: input.policy_number, termId: input.policy_term_id }),
});
