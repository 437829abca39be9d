import * as z from 'zod/mini';
import { defineIdempotentOperation } from '../../../shared/define-operation.js';
import { CLOSE_REASONS } from '../../../shared/claims/index.js';
import { updateExposureMove } from '../../../shared/moves/claims.js';
import { boundedString, id, optional } from '../../../shared/platform/request-fields.js';

export const handler = defineIdempotentOperation({
  version: 'v2',
  name: 'update_exposure',
  summary:
    'Closes an exposure (close_reason with_pay or without_pay), releasing its outstanding loss and expense reserves in the same transaction (a release transaction each), or reopens a closed one (a reason; its claim must be open): reopening restores no reserve until one is set. An Idempotency-Key header makes a retry answer the first answer and change nothing',
  permission: 'claims:write',
  input: () => z.object({ exposure_id: id(), status: z.enum(['closed', 'reopened']), close_reason: optional(z.enum(CLOSE_REASONS)), reason: optional(boundedString(500)) }),
  resources: { table: 'write' },
  idempotent: { scope: 'update_exposure', inProgress: 'The exposure change sent earlier with this Idempotency-Key is still being made' },
  handle: async (input, { principal }) =>
    updateExposureMove(principal, { exposureId: input.exposure_id, status: input.status, ...(input.close_reason ? { closeReason: input.close_reason } : {}), ...(input.reason ? { reason: input.reason } : {}) }),
});
