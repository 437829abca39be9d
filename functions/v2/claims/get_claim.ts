import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { getClaimView } from '../../../shared/claims/index.js';
import { id } from '../../../shared/platform/request-fields.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'get_claim',
  summary: 'A claim whole: the policy and the coverage in force on the loss date, the dates and due dates, the status and its history, the exposures, the people',
  permission: 'claims:read',
  input: () => z.object({ claim_id: id() }),
  resources: { table: 'read' },
  handle: async (input, { principal }) => getClaimView(principal, input.claim_id),
});
