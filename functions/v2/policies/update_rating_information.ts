import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { clearableMoney, eitherOf, freeFormObject, list, optionalFlag, optionalId, uuid, wholeNumber } from '../../../shared/platform/request-fields.js';
import { updateRatingInformation } from '../../../shared/policies/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'update_rating_information',
  summary: 'Changes limits, deductibles, manual premiums and builder answers of line items; clears calculated premiums',
  permission: 'policies:write',
  input: () => z
    .object({
      property_id: optionalId(),
      revision_id: optionalId(),
      items: list(
        z.object({
          id: uuid(),
          limit: clearableMoney(),
          deductible: clearableMoney(),
          manual: optionalFlag(),
          annual_premium: clearableMoney(),
          loss_exposure_group: z.optional(z.nullable(wholeNumber())),
          builder_obj: z.optional(z.nullable(freeFormObject())),
        }),
      ),
      reset_premiums: optionalFlag(),
      /** The spelling some clients send. */
      reset_premium: optionalFlag(),
      update_review: optionalFlag(),
    })
    .check(eitherOf('property_id', 'revision_id')),
  resources: { table: 'write' },
  handle: async ({ reset_premiums, reset_premium, update_review, ...input }, { principal }) =>
    updateRatingInformation(principal, {
      ...input,
      reset_premiums: reset_premiums ?? reset_premium ?? true,
      update_review: update_review ?? true,
    }),
});
