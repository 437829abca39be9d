import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { boundedString, date, name, optional, optionalId, optionalUuid, shortText, uuid, wholeNumber } from '../../../shared/platform/request-fields.js';
import { createDeliverable, MAX_DELAY_PRINT_DAYS } from '../../../shared/documents/index.js';

export const handler = defineOperation({
  version: 'v1',
  name: 'create_deliverable',
  summary:
    'Renders a deliverable (Declaration, Policy Application, Quote Summary, Installment Billing Statement, Notice of Cancellation) of a revision as a PDF, stores it as a file of the policy and queues it for printing on its print date (go_date + delay_print_days, on a business day)',
  permission: 'deliverables:write',
  input: () => z.object({
    revision_id: uuid('must be a revision id (UUID)'),
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
  handle: async (input, { principal, idempotencyKey }) => createDeliverable(principal, input, idempotencyKey),
});
