import * as z from 'zod/mini';
import { defineIdempotentOperation } from '../../../shared/define-operation.js';
import { COST_TYPES, paymentRequestOf, paymentTermsFields } from '../../../shared/claims/index.js';
import { makePaymentMove } from '../../../shared/moves/claims.js';
import { id, list, money } from '../../../shared/platform/request-fields.js';

export const handler = defineIdempotentOperation({
  version: 'v2',
  name: 'make_multi_exposures_payment',
  summary:
    "One payment (one check or transfer) over several exposures of one claim: a line per exposure and cost type with its gross amount, the deductible taken once per occurrence across the lines in order, every rule of make_payment applied to each line (limit, closed exposure, coverage in force) and to the whole (duplicate guard, the caller's payment authority on the total). Answers each line, deductible_applied, deductible_remaining and each line's limit_remaining. An Idempotency-Key header makes a retry answer the first answer and pay nothing",
  permission: 'claims:write',
  input: () => z.object({
    lines: list(z.object({ exposure_id: id(), cost_type: z.enum(COST_TYPES), amount: money() }), 6),
    ...paymentTermsFields(),
  }),
  resources: { table: 'write' },
  idempotent: { scope: 'make_multi_exposures_payment', inProgress: 'The payment sent earlier with this Idempotency-Key is still being made' },
  handle: async (input, { principal }) =>
    makePaymentMove(principal, paymentRequestOf(input.lines.map((line) => ({ exposureId: line.exposure_id, costType: line.cost_type, amount: line.amount })), input)),
});
