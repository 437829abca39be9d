import * as z from 'zod/mini';
import { defineIdempotentOperation } from '../../../shared/define-operation.js';
import { id } from '../../../shared/platform/request-fields.js';
import { approveRefund } from '../../../shared/billing/index.js';

export const handler = defineIdempotentOperation({
  version: 'v2',
  name: 'approve_refund',
  summary: 'Approves a pending refund for payment (a row on the account history); an Idempotency-Key header makes a retry answer the first result and change nothing',
  permission: 'refunds:write',
  input: () => z.object({
    refund_id: id(),
  }),
  resources: { table: 'write' },
  idempotent: { scope: 'approve_refund', inProgress: 'The call sent earlier with this Idempotency-Key is still being handled' },
  handle: async (input, { principal }) => approveRefund(principal, input.refund_id),
});
