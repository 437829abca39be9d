import * as z from 'zod/mini';
import { defineIdempotentOperation } from '../../../shared/define-operation.js';
import { wholeNumber } from '../../../shared/platform/request-fields.js';
import { exportRefunds } from '../../../shared/billing/index.js';

export const handler = defineIdempotentOperation({
  version: 'v2',
  name: 'export_refunds',
  summary:
    "The bank's positive-pay CSV (check_number, date, amount, payee) of the approved refunds, numbered from first_check_number; each exported refund is marked issued by its check, " +
    'so a second export of the same batch exports nothing; an Idempotency-Key header makes a retry answer the first file',
  permission: 'refunds:write',
  input: () => z.object({
    first_check_number: wholeNumber({ min: 1, max: 999_999_999 }),
  }),
  resources: { table: 'write' },
  idempotent: { scope: 'export_refunds', inProgress: 'The export sent earlier with this Idempotency-Key is still running' },
  handle: async (input, { principal }) => exportRefunds(principal, input.first_check_number),
});
