import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { CLOSE_REASONS, updateExposureStatus } from '../../../shared/claims/index.js';
import { boundedString, id, optional } from '../../../shared/platform/request-fields.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'update_exposure',
  summary: 'Closes an exposure (close_reason with_pay or without_pay) or reopens a closed one (a reason; its claim must be open)',
  permission: 'claims:write',
  input: () => z.object({ exposure_id: id(), status: z.enum(['closed', 'reopened']), close_reason: optional(z.enum(CLOSE_REASONS)), reason: optional(boundedString(500)) }),
  resources: { table: 'write' },
  handle: async (input, { principal }) =>
    updateExposureStatus(principal, { exposureId: input.exposure_id, status: input.status, ...(input.close_reason ? { closeReason: input.close_reason } : {}), ...(input.reason ? { reason: input.reason } : {}) }),
});
