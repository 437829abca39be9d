import { z } from 'zod';
import { BusinessRuleError } from '../../../shared/platform/errors.js';
import { DataWithMessages } from '../../../shared/platform/envelope.js';
import { defineOperation } from '../../../shared/operation.js';
import { updateBuilderReadyToRate } from '../../../shared/policies/risk-service.js';
import { flag, optionalId } from '../../../shared/policies/schemas.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'update_builder_ready_to_rate',
  summary: 'Marks a property (or every property of a revision) ready or not ready to rate',
  permission: 'policies:write',
  input: z.object({ revision_id: optionalId(), property_id: optionalId(), is_completed: flag(true) }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => {
    if (!input.property_id && !input.revision_id) throw new BusinessRuleError('revision_id: give revision_id or property_id');
    return new DataWithMessages(null, [await updateBuilderReadyToRate(principal, input)]);
  },
});
