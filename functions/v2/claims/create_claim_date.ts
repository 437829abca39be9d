import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { createClaimDate } from '../../../shared/claims/index.js';
import { boundedString, date, id } from '../../../shared/platform/request-fields.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'create_claim_date',
  summary:
    "Records a dated event of a claim (proof_of_loss_received, inspection, acknowledged, investigation_started, accepted, rejected, paid, ...): the state's clocks that run from it start, those it meets are met; answers the date and the claim's due dates",
  permission: 'claims:write',
  input: () => z.object({ claim_id: id(), claim_date_type: boundedString(40, { nonEmpty: true }).check(z.regex(/^[a-z][a-z_]*$/, 'lower-case letters and underscores, as proof_of_loss_received')), claim_date: date() }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => createClaimDate(principal, { claimId: input.claim_id, type: input.claim_date_type, date: input.claim_date }),
});
