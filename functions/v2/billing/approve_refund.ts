import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { id } from '../../../shared/platform/request-fields.js';
import { approveRefund } from '../../../shared/billing/index.js';
import { onceForKey } from '../../../shared/platform/idempotency-dynamodb.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'approve_refund',
  summary: 'Approves a pending refund for payment (a row on the account history); an Idempotency-Key header makes a retry answer the first result and change nothing',
  permission: 'refunds:write',
  input: () => z.object({
    refund_id: id(),
  }),
  resources: { table: 'write' },
  handle: async (input, { principal, idempotencyKey, deadline }) => {
    const step = () => approveRefund(principal, input.refund_id);
    return idempotencyKey ? onceForKey('approve_refund', `${principal.contactId}:${idempotencyKey}`, input, step, { deadline, inProgress: 'The call sent earlier with this Idempotency-Key is still being handled' }) : step();
  },
});
