import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { date, looseText, optional, shortText } from '../../../shared/platform/request-fields.js';
import { makeManualPaymentMove } from '../../../shared/moves/payment.js';
import { onceForKey } from '../../../shared/platform/idempotency-dynamodb.js';
import { moneyPathTracing } from '../../../shared/platform/tracing.js';

export const handler = defineOperation({
  version: 'v1',
  name: 'makeManualPolicyPayment',
  summary: 'Posts an already-collected payment to one policy (row, balance and note in one transaction); an Idempotency-Key header makes a retry answer the first result and post nothing',
  permission: 'billing:write',
  wrapper: 'json_dict',
  input: () => z.object({
    paymentType: optional(shortText()),
    depositDate: optional(date()),
    // Both are checked by the service so that their absence answers the documented texts.
    policyNumber: optional(looseText(128)),
    amount: optional(looseText(32)),
  }),
  resources: { table: 'write' },
  tracing: moneyPathTracing,
  handle: async (input, { principal, idempotencyKey, deadline }) => {
    const post = async () => {
      await makeManualPaymentMove(principal, input);
      return {};
    };
    return idempotencyKey ? onceForKey('makeManualPolicyPayment', `${principal.contactId}:${idempotencyKey}`, input, post, {
          deadline,
          inProgress: 'The payment sent earlier with this Idempotency-Key is still being posted',
        }) : post();
  },
});
