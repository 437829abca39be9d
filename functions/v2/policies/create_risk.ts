import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { freeFormValue, id, optional } from '../../../shared/platform/request-fields.js';
import { createRisk, clearableText } from '../../../shared/policies/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'create_risk',
  summary: 'Adds a property (Property #n) to an open revision, with its mandatory sub line and items',
  permission: 'policies:write',
  input: () => z.object({
    revision_id: id(),
    property_group_number: clearableText(),
    building_number: clearableText(),
    force_categories: optional(freeFormValue()).check(
      z.describe("Accepted for compatibility with the vendor's interface, and ignored: a new property always starts with its sub line's mandatory items."),
    ),
  }),
  resources: { table: 'write' },
  handle: async (input, { principal }) =>
    createRisk(principal, {
      revision_id: input.revision_id,
      property_group_number: input.property_group_number ?? undefined,
      building_number: input.building_number ?? undefined,
    }),
});
