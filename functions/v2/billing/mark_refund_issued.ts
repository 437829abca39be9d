import * as z from 'zod/mini';
import { defineIdempotentOperation } from '../../../shared/define-operation.js';
import { eitherOf, id, optional, shortText } from '../../../shared/platform/request-fields.js';
import { markRefundIssued } from '../../../shared/billing/index.js';

export const handler = defineIdempotentOperation({
  version: 'v2',
  name: 'mark_refund_issued',
  summary: 'Marks an approved refund paid, by check number or ACH trace (the Refund row takes the credit off the account); an Idempotency-Key header makes a retry answer the first result and change nothing',
  permission: 'refunds:write',
  input: () => z.object({
    refund_id: id(),
    check_number: optional(shortText()),
    ach_trace: optional(shortText()),
  }).check(eitherOf('check_number', 'ach_trace')),
  resources: { table: 'write' },
  idempotent: { scope: 'mark_refund_issued', inProgress: 'The call sent earlier with this Idempotency-Key is still being handled' },
  handle: async (input, { principal }) =>
    markRefundIssued(principal, input.refund_id, { ...(input.check_number ? { checkNumber: input.check_number } : {}), ...(input.ach_trace ? { achTrace: input.ach_trace } : {}) }),
});
