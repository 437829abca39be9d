import * as z from 'zod/mini';
import { defineIdempotentOperation } from '../../../shared/define-operation.js';
import { id, name, optional, shortText } from '../../../shared/platform/request-fields.js';
import { voidRefund } from '../../../shared/billing/index.js';

export const handler = defineIdempotentOperation({
  version: 'v2',
  name: 'void_refund',
  summary: 'Voids a pending or approved refund: the credit stays on the account (a row on the account history); an Idempotency-Key header makes a retry answer the first result and change nothing',
  permission: 'refunds:write',
  input: () => z.object({
    refund_id: id(),
    reason: name(),
  }),
  resources: { table: 'write' },
  idempotent: { scope: 'void_refund', inProgress: 'The call sent earlier with this Idempotency-Key is still being handled' },
  handle: async (input, { principal }) => voidRefund(principal, input.refund_id, input.reason),
});
