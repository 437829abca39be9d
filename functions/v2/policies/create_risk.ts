import { z } from 'zod';
import { defineOperation } from '../../../shared/operation.js';
import { createRisk } from '../../../shared/policies/risk-service.js';
import { clearableText, id } from '../../../shared/policies/schemas.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'create_risk',
  summary: 'Adds a property (Property #n) to an open revision, with its mandatory sub line and items',
  permission: 'policies:write',
  input: z.object({
    revision_id: id(),
    property_group_number: clearableText().optional(),
    building_number: clearableText().optional(),
  }),
  resources: { table: 'write' },
  handle: async (input, { principal }) =>
    createRisk(principal, {
      revision_id: input.revision_id,
      property_group_number: input.property_group_number ?? undefined,
      building_number: input.building_number ?? undefined,
    }),
});
