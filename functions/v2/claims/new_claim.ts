import * as z from 'zod/mini';
import { defineIdempotentOperation } from '../../../shared/define-operation.js';
import { REPORTER_RELATIONS } from '../../../shared/claims/index.js';
import { reportClaimMove } from '../../../shared/moves/claims.js';
import { boundedString, date, flagOr, freeText, id, name, optional, optionalId, shortText } from '../../../shared/platform/request-fields.js';

export const handler = defineIdempotentOperation({
  version: 'v2',
  name: 'new_claim',
  summary:
    'First notice of loss: reports a claim on a policy (loss date, peril from get_all_perils, description, who reported it), checks it against the revision in force on the loss date (a loss outside every term is recorded flagged coverage none_in_force), numbers it CL-<YYYY>-<n> and asks for its Claim Acknowledgement letter (in the wording of the state of the loss; for Florida with the Homeowner Claims Bill of Rights), which get_claim lists in documents. A report of the same policy, peril and a loss date within the duplicate window answers possible_duplicate_of unless confirm_new. Idempotency-Key answers a retried report with the first claim',
  permission: 'claims:report',
  input: () => z.object({
    policy_number: id(),
    loss_date: date(),
    loss_time: optional(boundedString(8).check(z.regex(/^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/, 'must be a time as HH:MM'))),
    time_zone: optional(boundedString(64)),
    reported_date: optional(date()),
    peril: boundedString(40, { nonEmpty: true }),
    description: freeText(),
    loss_address: optional(z.object({ address_line1: optional(shortText()), address_line2: optional(shortText()), address_city: optional(shortText()), address_state: optional(boundedString(2)), address_zip: optional(boundedString(10)) })),
    property_id: optionalId(),
    reported_by: z.object({ name: name(), relation: z.enum(REPORTER_RELATIONS), phone: optional(boundedString(40)), email: optional(boundedString(254)) }),
    cat_id: optionalId(),
    claim_number: optional(boundedString(40, { nonEmpty: true }).check(z.regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'letters, digits, dots, dashes and underscores'))),
    claim_number_origin: optional(boundedString(60)),
    confirm_new: flagOr(false),
  }),
  resources: { table: 'write' },
  idempotent: { scope: 'new_claim', inProgress: 'The claim reported earlier with this Idempotency-Key is still being recorded' },
  handle: async (input, { principal }) =>
      reportClaimMove(principal, {
        policyNumber: input.policy_number,
        lossDate: input.loss_date,
        ...(input.loss_time ? { lossTime: input.loss_time } : {}),
        ...(input.time_zone ? { timeZone: input.time_zone } : {}),
        ...(input.reported_date ? { reportedDate: input.reported_date } : {}),
        peril: input.peril,
        description: input.description,
        ...(input.loss_address
          ? { lossAddress: { line1: input.loss_address.address_line1, line2: input.loss_address.address_line2, city: input.loss_address.address_city, state: input.loss_address.address_state, zip: input.loss_address.address_zip } }
          : {}),
        ...(input.property_id ? { propertyId: input.property_id } : {}),
        reportedBy: { name: input.reported_by.name, relation: input.reported_by.relation, phone: input.reported_by.phone ?? null, email: input.reported_by.email ?? null },
        ...(input.cat_id ? { catastropheId: input.cat_id } : {}),
        ...(input.claim_number ? { claimNumber: input.claim_number } : {}),
        ...(input.claim_number_origin ? { claimNumberOrigin: input.claim_number_origin } : {}),
        confirmNew: input.confirm_new,
      }),
});
