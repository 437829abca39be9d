import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { autoAssignClaim } from '../../../shared/claims/index.js';
import { id } from '../../../shared/platform/request-fields.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'auto_assign_claim',
  summary:
    "Assigns a claim to an adjuster by the carrier's assignment rules (claims-rules.json assignment: the first rule holding the claim's peril and state names the eligible adjusters, else the holders of the default role) and load: the one with the fewest open claims, ties by name. A claim assigned already keeps its adjuster (update_claim changes him); the change is kept with who and when",
  permission: 'claims:write',
  input: () => z.object({ claim_id: id() }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => autoAssignClaim(principal, input.claim_id),
});
