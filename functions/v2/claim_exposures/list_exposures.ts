import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { listExposures } from '../../../shared/claims/index.js';
import { id } from '../../../shared/platform/request-fields.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'list_exposures',
  summary: "A claim's exposures, oldest first: coverage, limit, claimant, status (open, closed with_pay or without_pay, reopened) and its history",
  permission: 'claims:read',
  input: () => z.object({ claim_id: id() }),
  resources: { table: 'read' },
  handle: async (input, { principal }) => listExposures(principal, input.claim_id),
});
