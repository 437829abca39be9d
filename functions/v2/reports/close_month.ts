import * as z from 'zod/mini';
import { closeMonth } from '../../../shared/books/index.js';
import { defineOperation } from '../../../shared/define-operation.js';
import { boundedString } from '../../../shared/platform/request-fields.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'close_month',
  summary:
    'Closes a month (YYYY-MM) of the books, after it ended and after the month before it: its figures are kept as they are; a move dated into it later lands in the open month as a prior-period adjustment. Answers the month\'s figures as closed. Administrators only',
  permission: 'reports:close',
  input: () => z.object({
    month: boundedString(7).check(z.regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be a month as YYYY-MM')),
  }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => closeMonth(principal, input.month),
});
