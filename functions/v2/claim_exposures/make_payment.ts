import * as z from 'zod/mini';
import { defineIdempotentOperation } from '../../../shared/define-operation.js';
import { COST_TYPES, exposureLocatorBegun, paymentRequestOf, paymentTermsFields } from '../../../shared/claims/index.js';
import { makePaymentMove } from '../../../shared/moves/claims.js';
import { id, money } from '../../../shared/platform/request-fields.js';

export const handler = defineIdempotentOperation({
  version: 'v2',
  name: 'make_payment',
  summary:
    "Pays on one exposure: `amount` gross for a loss (the service takes the policy deductible, once per occurrence across the Section I property coverages, from the first payments until used up; never on Loss of Use or Section II), to the payees (contact ids; the policy's mortgagee at the loss is added as joint payee of a Dwelling or Other Structures loss payment), by check or ach. Refused past the coverage's limit (naming the coverage, its limit and what remains), on a claim with no coverage in force, on a closed exposure, and as a duplicate of an earlier payment not voided to the same payees of the same amount on the same invoice (naming it) unless confirm_duplicate. Within the caller's payment authority it is approved at once (paid, and its cost type's outstanding reserve lowered by it, never below zero; `final` releases the rest); above it, it waits pending_approval answering brokenLimits, for claims/approve_payment. Answers deductible_applied, deductible_remaining and limit_remaining. An Idempotency-Key header makes a retry answer the first answer and pay nothing",
  permission: 'claims:write',
  // The exposure's locator is all the payment's first reads of the claim wait for: begun beside the caller's authentication.
  beginWithCaller: (fields) => exposureLocatorBegun(fields.exposure_id),
  input: () => z.object({
    exposure_id: id(),
    cost_type: z.enum(COST_TYPES),
    amount: money(),
    ...paymentTermsFields(),
  }),
  resources: { table: 'write' },
  idempotent: { scope: 'make_payment', inProgress: 'The payment sent earlier with this Idempotency-Key is still being made' },
  handle: async (input, { principal }) =>
    makePaymentMove(principal, paymentRequestOf([{ exposureId: input.exposure_id, costType: input.cost_type, amount: input.amount }], input)),
});
