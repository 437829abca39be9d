import * as z from 'zod/mini';
import { defineIdempotentOperation } from '../../../shared/define-operation.js';
import { approvePaymentMove } from '../../../shared/moves/claims.js';
import { id } from '../../../shared/platform/request-fields.js';

export const handler = defineIdempotentOperation({
  version: 'v2',
  name: 'approve_payment',
  summary:
    "Approves a payment waiting approval, by someone whose payment authority covers it (Claims Manager 50,000.00, Administrators unlimited) and never its maker: it is then paid, its cost type's outstanding reserve lowered by it (never below zero; a final one releases the rest), ready for export_claim_payments. An Idempotency-Key header makes a retry answer the first answer and post nothing",
  permission: 'claims:write',
  input: () => z.object({ payment_id: id() }),
  resources: { table: 'write' },
  idempotent: { scope: 'approve_payment', inProgress: 'The approval sent earlier with this Idempotency-Key is still being made' },
  handle: async (input, { principal }) => approvePaymentMove(principal, input.payment_id),
});
