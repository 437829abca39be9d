import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { flagOr, id, looseText, optional, optionalId } from '../../../shared/platform/request-fields.js';
import { storeNsfMove } from '../../../shared/moves/payment.js';
import { onceForKey } from '../../../shared/platform/idempotency-dynamodb.js';
import { moneyPathTracing } from '../../../shared/platform/tracing.js';

export const handler = defineOperation({
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
  handle: async (input, { principal, idempotencyKey, deadline }) => {
    const store = async () => {
      await storeNsfMove(principal, input);
      return {};
    };
    return idempotencyKey ? onceForKey('storeNSF', `${principal.contactId}:${idempotencyKey}`, input, store, {
          deadline,
          inProgress: 'The NSF sent earlier with this Idempotency-Key is still being recorded',
        }) : store();
  },
});
