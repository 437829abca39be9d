import * as z from 'zod/mini';
import { defineIdempotentOperation } from '../../../shared/define-operation.js';
import { exportClaimPaymentsMove } from '../../../shared/moves/claims.js';
import { boundedString, date, id, list } from '../../../shared/platform/request-fields.js';

export const handler = defineIdempotentOperation({
  version: 'v2',
  name: 'export_claim_payments',
  summary:
    "Issues approved claim payments: each check with its check_number (or \"auto_assign\": the next of the carrier's claim check numbers), each transfer with a trace number, dated assign_check_date, listed in the year's issued payments, and answers the positive-pay CSV for the bank (check number, issue date, amount, payees). A payment not approved (waiting, void, or issued before) is skipped saying why: the same export sent again exports nothing. Each claim's payments are one transaction; event claim.payment_issued. An Idempotency-Key header makes a retry answer the first answer",
  permission: 'claims:manage',
  input: () => z.object({
    payments: list(z.object({ id: id(), check_number: boundedString(20, { nonEmpty: true }).check(z.regex(/^(auto_assign|\d{1,15})$/, 'must be a check number (digits) or "auto_assign"')) }), 200),
    assign_check_date: date(),
  }),
  resources: { table: 'write' },
  idempotent: { scope: 'export_claim_payments', inProgress: 'The export sent earlier with this Idempotency-Key is still being made' },
  handle: async (input, { principal }) =>
    exportClaimPaymentsMove(principal, { payments: input.payments.map((entry) => ({ id: entry.id, checkNumber: entry.check_number })), assignCheckDate: input.assign_check_date }),
});
