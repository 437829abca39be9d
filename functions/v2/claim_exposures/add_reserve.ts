import * as z from 'zod/mini';
import { defineIdempotentOperation } from '../../../shared/define-operation.js';
import { COST_TYPES } from '../../../shared/claims/index.js';
import { addReserveMove } from '../../../shared/moves/claims.js';
import { boundedString, id, money, optional } from '../../../shared/platform/request-fields.js';

export const handler = defineIdempotentOperation({
  version: 'v2',
  name: 'add_reserve',
  summary:
    "Sets an exposure's outstanding reserve of one cost type (loss: indemnity; expense: adjusting and legal): `amount` the new outstanding amount, or `change` by how much it moves (signed), with a reason. A reserve above the caller's authority per exposure (Claims Adjuster 25,000.00, Claims Manager 100,000.00, Administrators unlimited) is refused naming the limit; a closed exposure is reopened first. Answers the claim transaction and the exposure's figures; event claim.reserve_changed. An Idempotency-Key header makes a retry answer the first answer and post nothing",
  permission: 'claims:write',
  input: () => z.object({
    exposure_id: id(),
    cost_type: z.enum(COST_TYPES),
    amount: optional(money()),
    change: optional(z.union([z.number().check(z.gte(-9e13), z.lte(9e13)), boundedString(32, { nonEmpty: true })])),
    reason: optional(boundedString(500)),
  }),
  resources: { table: 'write' },
  idempotent: { scope: 'add_reserve', inProgress: 'The reserve sent earlier with this Idempotency-Key is still being set' },
  handle: async (input, { principal }) =>
    addReserveMove(principal, {
      exposureId: input.exposure_id,
      costType: input.cost_type,
      ...(input.amount !== undefined ? { amount: input.amount } : {}),
      ...(input.change !== undefined ? { change: input.change } : {}),
      ...(input.reason ? { reason: input.reason } : {}),
    }),
});
