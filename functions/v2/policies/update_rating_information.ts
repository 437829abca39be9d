import { z } from 'zod';
import { BusinessRuleError } from '../../../shared/platform/errors.js';
import { defineOperation } from '../../../shared/operation.js';
import { updateRatingInformation } from '../../../shared/policies/item-service.js';
import { clearableAmount, id, optionalFlag, optionalId, wholeNumber } from '../../../shared/policies/schemas.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'update_rating_information',
  summary: 'Changes limits, deductibles, manual premiums and builder answers of line items; clears calculated premiums',
  permission: 'policies:write',
  input: z.object({
    property_id: optionalId(),
    revision_id: optionalId(),
    items: z.array(
      z.object({
        id: id(),
        limit: clearableAmount().optional(),
        deductible: clearableAmount().optional(),
        manual: optionalFlag(),
        annual_premium: clearableAmount().optional(),
        loss_exposure_group: z.union([wholeNumber(), z.null()]).optional(),
        builder_obj: z.union([z.record(z.string(), z.unknown()), z.null()]).optional(),
      }),
    ),
    reset_premiums: optionalFlag(),
    /** The spelling some clients send. */
    reset_premium: optionalFlag(),
    update_review: optionalFlag(),
  }),
  resources: { table: 'write' },
  handle: async ({ reset_premiums, reset_premium, update_review, ...input }, { principal }) => {
    if (!input.property_id && !input.revision_id) throw new BusinessRuleError('property_id: give property_id or revision_id');
    return updateRatingInformation(principal, {
      ...input,
      reset_premiums: reset_premiums ?? reset_premium ?? true,
      update_review: update_review ?? true,
    });
  },
});
