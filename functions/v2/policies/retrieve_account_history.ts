import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { date, eitherOf, freeFormObject, optional, optionalId, pageNumber, pageSize, withDefault } from '../../../shared/platform/request-fields.js';
import { DEFAULT_HISTORY_PAGE_SIZE, accountHistory } from '../../../shared/billing/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'retrieve_account_history',
  summary:
    "A page of a term's account history (invoices, payments, NSF, fees, cancellation, return premium), newest first, each with the balance after it. " +
    'Rows dated after today (or after as_of) are not shown: a nightly run for a later day writes rows of that day, which appear once it comes, or at once with as_of',
  permission: 'billing:read',
  input: () => z
    .object({
      policy_id: optionalId(),
      policy_term_id: optionalId(),
      filter_dict: optional(freeFormObject()),
      current_page: withDefault(pageNumber(1), 1),
      page_size: withDefault(pageSize(10_000), DEFAULT_HISTORY_PAGE_SIZE),
      // Beyond the interface: the history as it stands on a day (today when absent), later rows included up to it.
      as_of: optional(date()),
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
      ...(input.as_of ? { asOf: input.as_of } : {}),
    });
    return page;
  },
});
