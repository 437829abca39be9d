import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { id } from '../../../shared/platform/request-fields.js';
import { retrieveRiskDetails } from '../../../shared/policies/index.js';
import { lossHistory } from '../../../shared/claims/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'retrieve_risk_details',
  summary: "A property with its items, sub lines and mortgagees, and the policy's claims as its loss_history (number, loss date, peril, status)",
  permission: 'policies:read',
  input: () => z.object({ risk_id: id() }),
  resources: { table: 'read' },
  handle: async (input, { principal }) => retrieveRiskDetails(principal, input.risk_id, { lossHistory }),
});
