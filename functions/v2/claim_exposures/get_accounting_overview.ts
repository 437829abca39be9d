import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { getAccountingOverview } from '../../../shared/claims/index.js';
import { id } from '../../../shared/platform/request-fields.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'get_accounting_overview',
  summary:
    "A claim's money: per exposure and cost type the reserve (outstanding plus paid), paid, outstanding, recovered, recovery reserve and incurred (paid less recovered plus outstanding), the limit remaining; the deductible, applied, remaining and reimbursed; and the claim's totals (net paid loss, incurred)",
  permission: 'claims:read',
  input: () => z.object({ claim_id: id() }),
  resources: { table: 'read' },
  handle: async (input, { principal }) => getAccountingOverview(principal, input.claim_id),
});
