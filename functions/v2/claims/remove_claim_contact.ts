import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { CLAIM_CONTACT_ROLES, removeClaimContact } from '../../../shared/claims/index.js';
import { id } from '../../../shared/platform/request-fields.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'remove_claim_contact',
  summary: "Removes a contact's role on a claim (never the insured, nor an exposure's claimant); answers the claim's people",
  permission: 'claims:write',
  input: () => z.object({ claim_id: id(), contact_id: id(), role: z.enum(CLAIM_CONTACT_ROLES) }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => removeClaimContact(principal, { claimId: input.claim_id, contactId: input.contact_id, role: input.role }),
});
