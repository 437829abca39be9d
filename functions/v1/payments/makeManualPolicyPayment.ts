import * as z from 'zod/mini';
import { defineIdempotentOperation } from '../../../shared/define-operation.js';
import { date, looseText, optional, shortText } from '../../../shared/platform/request-fields.js';
import { makeManualPaymentMove } from '../../../shared/moves/payment.js';
import { policyNumberLookupBegun } from '../../../shared/policies/index.js';
import { moneyPathTracing } from '../../../shared/platform/tracing.js';

export const handler = defineIdempotentOperation({
  version: 'v1',
  name: 'makeManualPolicyPayment',
  summary: 'Posts an already-collected payment to one policy (row, balance and note in one transaction); an Idempotency-Key header makes a retry answer the first result and post nothing',
  permission: 'billing:write',
  wrapper: 'json_dict',
  // The number's lookup is all the payment's first reads wait for: begun beside the caller's authentication.
  beginWithCaller: (fields) => policyNumberLookupBegun(fields.policyNumber),
  input: () => z.object({
    paymentType: optional(shortText()),
    depositDate: optional(date()),
    // Both are checked by the service so that their absence answers the documented texts.
    policyNumber: optional(looseText(128)),
    amount: optional(looseText(32)),
  }),
  resources: { table: 'write' },
  tracing: moneyPathTracing,
  idempotent: { scope: 'makeManualPolicyPayment', inProgress: 'The payment sent earlier with this Idempotency-Key is still being posted' },
  handle: async (input, { principal }) => {
    await makeManualPaymentMove(principal, input);
    return {};
  },
});
