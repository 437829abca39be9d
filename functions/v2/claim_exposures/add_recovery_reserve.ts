import * as z from 'zod/mini';
import { defineIdempotentOperation } from '../../../shared/define-operation.js';
import { RECOVERY_CATEGORIES } from '../../../shared/claims/index.js';
import { addRecoveryReserveMove } from '../../../shared/moves/claims.js';
import { boundedString, date, id, money, optional } from '../../../shared/platform/request-fields.js';

export const handler = defineIdempotentOperation({
  version: 'v2',
  name: 'add_recovery_reserve',
  summary:
    'Sets the recovery expected on an exposure (subrogation or salvage): `amount` what is now expected in all, with a description and date; a recovery received lowers it. Answers the claim transaction and the exposure\'s figures. An Idempotency-Key header makes a retry answer the first answer and post nothing',
  permission: 'claims:write',
  input: () => z.object({ exposure_id: id(), category: z.enum(RECOVERY_CATEGORIES), amount: money(), description: optional(boundedString(500)), date: optional(date()) }),
  resources: { table: 'write' },
  idempotent: { scope: 'add_recovery_reserve', inProgress: 'The recovery reserve sent earlier with this Idempotency-Key is still being set' },
  handle: async (input, { principal }) =>
    addRecoveryReserveMove(principal, { exposureId: input.exposure_id, category: input.category, amount: input.amount, ...(input.description ? { description: input.description } : {}), ...(input.date ? { date: input.date } : {}) }),
});
