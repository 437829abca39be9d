import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { id } from '../../../shared/platform/request-fields.js';
import { resetRiskPremium } from '../../../shared/policies/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'reset_risk_premium',
  summary: "Clears a property's calculated premiums and the revision totals that included them",
  permission: 'policies:write',
  input: () => z.object({ risk_id: id() }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => resetRiskPremium(principal, input.risk_id),
});
