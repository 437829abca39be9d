import * as z from 'zod/mini';
import { defineIdempotentOperation } from '../../../shared/define-operation.js';
import { markPaymentClearedMove } from '../../../shared/moves/claims.js';
import { date, id } from '../../../shared/platform/request-fields.js';

export const handler = defineIdempotentOperation({
  version: 'v2',
  name: 'mark_payment_cleared',
  summary: 'Records that an issued payment cleared the bank on cleared_date (not before it was issued): a cleared check is no longer voided. An Idempotency-Key header makes a retry answer the first answer and change nothing',
  permission: 'claims:manage',
  input: () => z.object({ payment_id: id(), cleared_date: date() }),
  resources: { table: 'write' },
  idempotent: { scope: 'mark_payment_cleared', inProgress: 'The clearing sent earlier with this Idempotency-Key is still being recorded' },
  handle: async (input, { principal }) => markPaymentClearedMove(principal, { paymentId: input.payment_id, clearedDate: input.cleared_date }),
});
