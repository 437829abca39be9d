import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { createExposure } from '../../../shared/claims/index.js';
import { boundedString, id, optionalId } from '../../../shared/platform/request-fields.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'create_exposure',
  summary:
    'Opens an exposure of a claim: one coverage of the revision in force on the loss date (its item name or id: Dwelling, Other Structures, Personal Property, Loss of Use, Personal Liability, Medical Payments, ...) for one claimant (the insured by default; a third party for liability and medical payments). A coverage the revision does not carry is refused naming it',
  permission: 'claims:write',
  input: () => z.object({ claim_id: id(), coverage: boundedString(120, { nonEmpty: true }), claimant_contact_id: optionalId() }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => createExposure(principal, { claimId: input.claim_id, coverage: input.coverage, ...(input.claimant_contact_id ? { claimantContactId: input.claimant_contact_id } : {}) }),
});
