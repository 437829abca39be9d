import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { getClaimChanges } from '../../../shared/claims/index.js';
import { id } from '../../../shared/platform/request-fields.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'get_claim_changes',
  summary: "Every change of a claim, oldest first: the move, who, when, each field from and to, the reason",
  permission: 'claims:read',
  input: () => z.object({ claim_id: id() }),
  resources: { table: 'read' },
  handle: async (input, { principal }) => getClaimChanges(principal, input.claim_id),
});
