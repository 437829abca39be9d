import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { lossRun } from '../../../shared/claims/index.js';
import { date, id, optional, withDefault } from '../../../shared/platform/request-fields.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'loss_run',
  summary:
    "A loss run of a policy (policy_number) or an agency (agency_id): each claim with its loss date from `from` to `to`, valued as of as_of (a claim transaction recorded after that day is not counted; a claim recorded after it is not listed): number, loss date, peril, status then, paid loss and expense, outstanding, recovered and incurred; the totals; the premium they are set against (a policy's: written by its terms in the period and earned pro rata through as_of; an agency's: its months in the premium report) and the loss ratio (incurred loss over earned premium, four decimals) and loss-and-expense ratio. An agent runs his agencies' only (another's is not found); one who sends neither field runs his agency's, when he belongs to one only. format csv adds it as CSV text, pdf as a PDF (pdf_base64)",
  permission: 'claims:read',
  input: () =>
    z.object({
      policy_number: optional(id()),
      agency_id: optional(id()),
      as_of: date(),
      from: date(),
      to: date(),
      format: withDefault(z.enum(['json', 'csv', 'pdf'], { error: 'must be json, csv or pdf' }), 'json'),
    }),
  resources: { table: 'read' },
  handle: async (input, { principal }) =>
    lossRun(principal, {
      ...(input.policy_number ? { policyNumber: input.policy_number } : {}),
      ...(input.agency_id ? { agencyId: input.agency_id } : {}),
      asOf: input.as_of,
      from: input.from,
      to: input.to,
      format: input.format,
    }),
});
