import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { id } from '../../../shared/platform/request-fields.js';
import { rateStoredRisk } from '../../../shared/policies/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'rate_risk',
  summary: "Rates the property's revision (a discount reads every property) and answers the property's premiums, items and sub lines",
  permission: 'policies:write',
  input: () => z.object({ risk_id: id() }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => rateStoredRisk(principal, input.risk_id),
});
