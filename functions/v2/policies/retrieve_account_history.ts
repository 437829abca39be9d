import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/operation.js';
import { eitherOf, freeFormObject, optional, optionalId, pageNumber, pageSize, withDefault } from '../../../shared/platform/request-fields.js';
import { accountHistory } from '../../../shared/billing/service.js';
import { DEFAULT_HISTORY_PAGE_SIZE } from '../../../shared/billing/account-history.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'retrieve_account_history',
  summary: "A page of a term's account history (invoices, payments, NSF, fees, cancellation, return premium), newest first, each with the balance after it",
  permission: 'billing:read',
  input: z
    .object({
      policy_id: optionalId(),
      policy_term_id: optionalId(),
      filter_dict: optional(freeFormObject()),
      current_page: withDefault(pageNumber(1), 1),
      page_size: withDefault(pageSize(10_000), DEFAULT_HISTORY_PAGE_SIZE),
    })
    .check(eitherOf('policy_id', 'policy_term_id')),
  resources: { table: 'read' },
  handle: async (input, { principal }) => {
    const page = await accountHistory(principal, {
      policyId: input.policy_id,
      termId: input.policy_term_id,
      filter: input.filter_dict,
      currentPage: input.current_page,
      pageSize: input.page_size,
    });
    return page;
  },
});
