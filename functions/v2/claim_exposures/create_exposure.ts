import * as z from 'zod/mini';
import { defineIdempotentOperation } from '../../../shared/define-operation.js';
import { createExposureMove } from '../../../shared/moves/claims.js';
import { boundedString, id, optionalId } from '../../../shared/platform/request-fields.js';

export const handler = defineIdempotentOperation({
  version: 'v2',
  name: 'create_exposure',
  summary:
    "Opens an exposure of a claim: one coverage of the revision in force on the loss date (its item name or id: Dwelling, Other Structures, Personal Property, Loss of Use, Personal Liability, Medical Payments, ...) for one claimant (the insured by default; a third party for liability and medical payments), with the product's default loss reserve for the coverage (Dwelling 5,000.00, Other Structures 2,000.00, Personal Property 2,500.00, Loss of Use 1,000.00, Personal Liability 10,000.00, Medical Payments 1,000.00) as its first claim transaction. A coverage the revision does not carry is refused naming it; an Idempotency-Key header makes a retry answer the first answer and open nothing more",
  permission: 'claims:write',
  input: () => z.object({ claim_id: id(), coverage: boundedString(120, { nonEmpty: true }), claimant_contact_id: optionalId() }),
  resources: { table: 'write' },
  idempotent: { scope: 'create_exposure', inProgress: 'The exposure sent earlier with this Idempotency-Key is still being opened' },
  handle: async (input, { principal }) => createExposureMove(principal, { claimId: input.claim_id, coverage: input.coverage, ...(input.claimant_contact_id ? { claimantContactId: input.claimant_contact_id } : {}) }),
});
