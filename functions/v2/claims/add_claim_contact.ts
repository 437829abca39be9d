import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { addClaimContact, CLAIM_CONTACT_ROLES } from '../../../shared/claims/index.js';
import { id } from '../../../shared/platform/request-fields.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'add_claim_contact',
  summary: 'Adds a contact to a claim in a role (claimant, public_adjuster, contractor, attorney, witness, mortgagee, vendor); answers the claim\'s people',
  permission: 'claims:write',
  input: () => z.object({ claim_id: id(), contact_id: id(), role: z.enum(CLAIM_CONTACT_ROLES) }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => addClaimContact(principal, { claimId: input.claim_id, contactId: input.contact_id, role: input.role }),
});
