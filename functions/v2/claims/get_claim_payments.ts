import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { getClaimPayments } from '../../../shared/claims/index.js';
import { id } from '../../../shared/platform/request-fields.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'get_claim_payments',
  summary: "A claim's payments, oldest first: lines per exposure (gross, deductible, amount), payees, method, invoice, status (pending_approval, approved, issued, void), approval, check or trace number, cleared date, void",
  permission: 'claims:read',
  input: () => z.object({ claim_id: id() }),
  resources: { table: 'read' },
  handle: async (input, { principal }) => getClaimPayments(principal, input.claim_id),
});
