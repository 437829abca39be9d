import * as z from 'zod/mini';
import { DataWithMessages } from '../../../shared/platform/envelope.js';
import { defineOperation } from '../../../shared/define-operation.js';
import { eitherOf, flagOr, optionalId } from '../../../shared/platform/request-fields.js';
import { updateBuilderReadyToRate } from '../../../shared/policies/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'update_builder_ready_to_rate',
  summary: 'Marks a property (or every property of a revision) ready or not ready to rate',
  permission: 'policies:write',
  input: () => z.object({ revision_id: optionalId(), property_id: optionalId(), is_completed: flagOr(true) }).check(eitherOf('revision_id', 'property_id')),
  resources: { table: 'write' },
  handle: async (input, { principal }) => new DataWithMessages(null, [await updateBuilderReadyToRate(principal, input)]),
});
