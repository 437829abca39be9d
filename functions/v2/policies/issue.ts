import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/operation.js';
import { eitherOf, optionalId } from '../../../shared/platform/request-fields.js';
import { issuePolicy } from '../../../shared/lifecycle/issue.js';
import type { IssueContribution } from '../../../shared/lifecycle/model.js';
import { declarationAtIssue } from '../../../shared/documents/deliverable-requests.js';
import { billingAtIssue } from '../../../shared/billing/service.js';

/** What other areas add to an issue, in its one transaction: billing's invoices, documents' Declaration. */
const contributions: IssueContribution[] = [billingAtIssue(), declarationAtIssue];

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
    ...(await issuePolicy(principal, { policyId: issue_info.policy_id, policyNumber: issue_info.policy_number, billingScheduleId: issue_info.billing_schedule_id }, contributions)),
    status: 'Active' as const,
  }),
});
