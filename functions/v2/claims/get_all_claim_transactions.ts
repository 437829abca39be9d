import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { getAllClaimTransactions } from '../../../shared/claims/index.js';
import { id } from '../../../shared/platform/request-fields.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'get_all_claim_transactions',
  summary: "Every claim transaction of a claim, all exposures, oldest first: type (reserve, payment, recovery, recovery_reserve), cost type, amount, status, who, when and why",
  permission: 'claims:read',
  input: () => z.object({ claim_id: id() }),
  resources: { table: 'read' },
  handle: async (input, { principal }) => getAllClaimTransactions(principal, input.claim_id),
});
