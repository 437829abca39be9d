import * as z from 'zod/mini';
import { recordCommissionPayment } from '../../../shared/commissions/index.js';
import { defineOperation } from '../../../shared/define-operation.js';
import { onceForKey } from '../../../shared/platform/idempotency-dynamodb.js';
import { date, id, money, name } from '../../../shared/platform/request-fields.js';

export const handler = defineOperation({
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
  handle: async (input, { principal, idempotencyKey, deadline }) => {
    const record = () => recordCommissionPayment(principal, { agencyId: input.agency_id, amount: input.amount, paidOn: input.paid_on, reference: input.reference });
    return idempotencyKey ? onceForKey('record_commission_payment', `${principal.contactId}:${idempotencyKey}`, input, record, { deadline, inProgress: 'The payment sent earlier with this Idempotency-Key is still being recorded' }) : record();
  },
});
