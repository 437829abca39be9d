import * as z from 'zod/mini';
import { journal } from '../../../shared/books/index.js';
import { defineOperation } from '../../../shared/define-operation.js';
import { date, withDefault } from '../../../shared/platform/request-fields.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'journal',
  summary:
    'The double-entry journal from one day to another: each day\'s entries (premium written, billed, collected, refunded, earned; claim reserves, payments, checks cleared and recoveries) over the chart of accounts in docs/accounting.md, each day balanced, and the trial balance at to_date. format csv adds the entries as CSV',
  permission: 'reports:read',
  input: () => z.object({
    from_date: date(),
    to_date: date(),
    format: withDefault(z.enum(['json', 'csv'], { error: 'must be json or csv' }), 'json'),
  }),
  resources: { table: 'read' },
  handle: async (input, { principal }) => journal(principal, { fromDate: input.from_date, toDate: input.to_date, format: input.format }),
});
