import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/operation.js';
import { flagOr, id, looseText, optional, optionalId } from '../../../shared/platform/request-fields.js';
import { storeNsf } from '../../../shared/billing/service.js';

export const handler = defineOperation({
  version: 'v1',
  name: 'storeNSF',
  summary: 'Marks a payment as returned for non-sufficient funds: the payment is reversed, the NSF fee debited or waived, the non-pay cancellation allowed or postponed',
  permission: 'billing:write',
  wrapper: 'json_dict',
  input: z.object({
    paymentId: id(),
    policyId: optionalId(),
    dueMonth: optional(looseText(4)),
    dueDay: optional(looseText(4)),
    dueYear: optional(looseText(4)),
    assessFee: optional(looseText(32)),
    allowCancel: flagOr(true),
  }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => {
    await storeNsf(principal, input);
    return {};
  },
});
