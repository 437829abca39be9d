import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { boundedString, date, name, optional, optionalId, optionalUuid, shortText, wholeNumber } from '../../../shared/platform/request-fields.js';
import { claimWithinReach } from '../../../shared/claims/index.js';
import { createDeliverable, MAX_DELAY_PRINT_DAYS } from '../../../shared/documents/index.js';

export const handler = defineOperation({
  version: 'v1',
  name: 'create_deliverable',
  summary:
    'Renders a deliverable (Declaration, Policy Application, Quote Summary, Installment Billing Statement, Notice of Cancellation) of a revision as a PDF, stores it as a file of the policy and queues it for printing on its print date (go_date + delay_print_days, on a business day). ' +
    "With reference_type claims it is a claim's (claim_id required; claim_number and claim_loss_date, when given, must be the claim's): a letter (Claim Acknowledgement, Closing, Denial, Reservation of Rights; reason gives a denial's or reservation's reason) or a policy document filed with the claim, of revision_id or else the revision in force on the claim's loss date; get_claim lists it in documents",
  permission: 'deliverables:write',
  input: () => z.object({
    // Required but for a claim's deliverable (reference_type claims), which defaults to the claim's revision at loss.
    revision_id: optionalUuid('must be a revision id (UUID)'),
    deliverable_type: name(),
    go_date: optional(date()),
    reference_type: optional(z.enum(['policies', 'claims'], { error: 'must be policies or claims' })),
    proc_date: optional(date()),
    // Business locations and return premiums are not kept apart in the reference product: read for shape only.
    location_id: optionalUuid(),
    invoice_id: optionalUuid(),
    return_premium_id: optionalUuid(),
    reason: optional(shortText()),
    claim_number: optionalId(),
    claim_id: optionalUuid(),
    claim_loss_date: optional(date()),
    // Where the file goes is decided by the service (one folder per file); a given path is not honoured.
    filepath: optional(boundedString(1024)),
    delay_print_days: optional(wholeNumber({ min: 0, max: MAX_DELAY_PRINT_DAYS })),
    print_state: optional(z.enum(['tbd', 'none', 'printed'], { error: 'must be tbd, none or printed' })),
  }),
  resources: { table: 'write', bucket: 'write' },
  handle: async (input, { principal, idempotencyKey }) => {
    // A claim's deliverable is made from the claim as the claims area reads it within the caller's reach (documents does not import claims).
    const claim = input.reference_type === 'claims' && input.claim_id ? (await claimWithinReach(principal, input.claim_id)).claim : undefined;
    return createDeliverable(principal, input, idempotencyKey, claim);
  },
});
