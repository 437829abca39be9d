import * as z from 'zod/mini';
import { defineIdempotentOperation } from '../../../shared/define-operation.js';
import { voidTransactionMove } from '../../../shared/moves/claims.js';
import { boundedString, id } from '../../../shared/platform/request-fields.js';

export const handler = defineIdempotentOperation({
  version: 'v2',
  name: 'void_transaction',
  summary:
    "Voids a payment (by its id or a line's transaction id) not yet issued, or an issued check not cleared, with a reason: what it paid comes off paid and the reserve it lowered comes back (a transaction each), the deductible it took is the insured's to bear again, and an issued check leaves the year's issued payments. A transfer sent, a cleared check and a reserve transaction are not voided. Event claim.payment_voided; an Idempotency-Key header makes a retry answer the first answer and change nothing",
  permission: 'claims:write',
  input: () => z.object({ transaction_id: id(), reason: boundedString(500, { nonEmpty: true }) }),
  resources: { table: 'write' },
  idempotent: { scope: 'void_transaction', inProgress: 'The void sent earlier with this Idempotency-Key is still being made' },
  handle: async (input, { principal }) => voidTransactionMove(principal, { transactionId: input.transaction_id, reason: input.reason }),
});
