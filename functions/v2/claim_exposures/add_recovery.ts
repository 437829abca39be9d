import * as z from 'zod/mini';
import { defineIdempotentOperation } from '../../../shared/define-operation.js';
import { RECOVERY_CATEGORIES } from '../../../shared/claims/index.js';
import { addRecoveryMove } from '../../../shared/moves/claims.js';
import { boundedString, date, id, money, optional } from '../../../shared/platform/request-fields.js';

export const handler = defineIdempotentOperation({
  version: 'v2',
  name: 'add_recovery',
  summary:
    "Records a recovery received on an exposure (subrogation or salvage; a closed exposure too): the deductible the insured bore is reimbursed to him first, in full if the recovery allows (a payment of its own to the insured, approved, in the same transaction, issued with the next export), the rest is the carrier's and lowers its paid loss; the recovery reserve is lowered by what came in. Answers the transaction, deductible_reimbursed, carrier_share and the reimbursement; event claim.recovery_received. An Idempotency-Key header makes a retry answer the first answer and post nothing",
  permission: 'claims:write',
  input: () => z.object({ exposure_id: id(), category: z.enum(RECOVERY_CATEGORIES), amount: money(), description: optional(boundedString(500)), date: optional(date()) }),
  resources: { table: 'write' },
  idempotent: { scope: 'add_recovery', inProgress: 'The recovery sent earlier with this Idempotency-Key is still being recorded' },
  handle: async (input, { principal }) =>
    addRecoveryMove(principal, { exposureId: input.exposure_id, category: input.category, amount: input.amount, ...(input.description ? { description: input.description } : {}), ...(input.date ? { date: input.date } : {}) }),
});
