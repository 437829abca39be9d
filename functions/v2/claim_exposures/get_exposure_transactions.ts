import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { getExposureTransactions } from '../../../shared/claims/index.js';
import { id } from '../../../shared/platform/request-fields.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'get_exposure_transactions',
  summary: "An exposure's claim transactions, oldest first: type (reserve, payment, recovery, recovery_reserve), cost type, amount, status (pending_approval, approved, issued, void), who, when and why",
  permission: 'claims:read',
  input: () => z.object({ exposure_id: id() }),
  resources: { table: 'read' },
  handle: async (input, { principal }) => getExposureTransactions(principal, input.exposure_id),
});
