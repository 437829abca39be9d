import * as z from 'zod/mini';
import { retrieveCommissionStatement } from '../../../shared/commissions/index.js';
import { defineOperation } from '../../../shared/define-operation.js';
import { boundedString, id, withDefault } from '../../../shared/platform/request-fields.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'retrieve_commission_statement',
  summary:
    "An agency's commission statement for a month (YYYY-MM): each policy transaction (policy number, insured, transaction, effective date, premium, rate, commission), totals, the previous balance and what was paid. An agent reads his own agency's only. format csv adds the statement as CSV; format pdf makes it a PDF file of the agency in the documents area, queued for print or e-mail like any deliverable (deliverable.file_id), the same file while the statement is unchanged",
  permission: 'billing:read',
  input: () => z.object({
    agency_id: id(),
    month: boundedString(7).check(z.regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be a month as YYYY-MM')),
    format: withDefault(z.enum(['json', 'csv', 'pdf'], { error: 'must be json, csv or pdf' }), 'json'),
  }),
  resources: { table: 'write', bucket: 'write' },
  handle: async (input, { principal }) => retrieveCommissionStatement(principal, { agencyId: input.agency_id, month: input.month, format: input.format }),
});
