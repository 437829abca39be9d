import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { date, flagOr, id, optional, pageNumber, pageSize, withDefault } from '../../../shared/platform/request-fields.js';
import { getPolicies } from '../../../shared/search/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'get_policies',
  summary: "One page of a contact's policies (as agent, agency, named insured, ...) within the caller's reach, in order of date added, optionally added strictly between two dates",
  permission: 'policies:read',
  input: () => z.object({
    contact_id: id(),
    from_date: optional(date()),
    to_date: optional(date()),
    sorting_order: withDefault(z.enum(['asc', 'desc'], { error: 'must be asc or desc' }), 'asc'),
    page_number: withDefault(pageNumber(1), 1),
    page_size: withDefault(pageSize(), 50),
    include_policy_photo: flagOr(true),
    /** Vendor parameter: false leaves cancelled policies out. */
    include_canceled: flagOr(true),
  }),
  resources: { table: 'read' },
  handle: async (input, { principal }) =>
    getPolicies(principal, {
      contactId: input.contact_id,
      fromDate: input.from_date,
      toDate: input.to_date,
      order: input.sorting_order,
      includePhoto: input.include_policy_photo,
      includeCanceled: input.include_canceled,
      pageNumber: input.page_number,
      pageSize: input.page_size,
    }),
});
