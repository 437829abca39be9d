import * as z from 'zod/mini';
import { defineIdempotentOperation } from '../../../shared/define-operation.js';
import { flagOr, id, looseText, optional, optionalId } from '../../../shared/platform/request-fields.js';
import { storeNsfMove } from '../../../shared/moves/payment.js';
import { moneyPathTracing } from '../../../shared/platform/tracing.js';

export const handler = defineIdempotentOperation({
  version: 'v1',
  name: 'storeNSF',
  summary: 'Marks a payment as returned for non-sufficient funds: the payment is reversed, the NSF fee debited or waived, the non-pay cancellation allowed or postponed',
  permission: 'billing:write',
  wrapper: 'json_dict',
  input: () => z.object({
    paymentId: id(),
    policyId: optionalId(),
    dueMonth: optional(looseText(4)),
    dueDay: optional(looseText(4)),
    dueYear: optional(looseText(4)),
    assessFee: optional(looseText(32)),
    allowCancel: flagOr(true),
  }),
  resources: { table: 'write' },
  tracing: moneyPathTracing,
  // An Idempotency-Key makes a retry answer the first answer; without one a second NSF of the payment is refused.
  idempotent: { scope: 'storeNSF', inProgress: 'The NSF sent earlier with this Idempotency-Key is still being recorded' },
  handle: async (input, { principal }) => {
    await storeNsfMove(principal, input);
    return {};
  },
});
