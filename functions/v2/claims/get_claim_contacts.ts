import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { getClaimContacts } from '../../../shared/claims/index.js';
import { id } from '../../../shared/platform/request-fields.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'get_claim_contacts',
  summary: 'The people on a claim, each in its role (insured, claimant, public adjuster, contractor, attorney, witness, mortgagee from the policy, vendor)',
  permission: 'claims:read',
  input: () => z.object({ claim_id: id() }),
  resources: { table: 'read' },
  handle: async (input, { principal }) => getClaimContacts(principal, input.claim_id),
});
