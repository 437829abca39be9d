import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/operation.js';
import { eitherOf, optionalId } from '../../../shared/platform/request-fields.js';
import { moves } from '../../../shared/moves.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'issue',
  summary: 'Commits a bound quote (revision committed, status Active, commit date set) with the invoices and Declaration other areas add, in one transaction',
  permission: 'policies:issue',
  input: z.object({
    issue_info: z
      .object({
        policy_id: optionalId(),
        policy_number: optionalId(),
        // Beyond the interface: the billing schedule to invoice (an id of retrieve_billing_schedule_options); Full Pay when absent.
        billing_schedule_id: optionalId(),
      })
      .check(eitherOf('policy_id', 'policy_number')),
  }),
  resources: { table: 'write' },
  // Beyond the vendor's fields: the status the policy is now in, so that a client need not read it back.
  handle: async ({ issue_info }, { principal }) => ({
    ...(await moves.issue(principal, { policyId: issue_info.policy_id, policyNumber: issue_info.policy_number, billingScheduleId: issue_info.billing_schedule_id })),
    status: 'Active' as const,
  }),
});
