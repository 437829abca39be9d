import * as z from 'zod/mini';
import { recordCommissionPayment } from '../../../shared/commissions/index.js';
import { defineIdempotentOperation } from '../../../shared/define-operation.js';
import { date, id, money, name } from '../../../shared/platform/request-fields.js';

export const handler = defineIdempotentOperation({
  version: 'v2',
  name: 'record_commission_payment',
  summary:
    "Records a commission payment made to an agency (Administrators): the statement of the month paid_on falls in shows it as paid and carries the lower balance forward. A reference is recorded once per agency; an Idempotency-Key header makes a retry answer the first result and change nothing",
  permission: 'billing:write',
  input: () => z.object({
    agency_id: id(),
    amount: money(),
    paid_on: date(),
    reference: name(),
  }),
  resources: { table: 'write' },
  idempotent: { scope: 'record_commission_payment', inProgress: 'The payment sent earlier with this Idempotency-Key is still being recorded' },
  handle: async (input, { principal }) => recordCommissionPayment(principal, { agencyId: input.agency_id, amount: input.amount, paidOn: input.paid_on, reference: input.reference }),
});
