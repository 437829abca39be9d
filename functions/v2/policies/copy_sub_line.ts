import { z } from 'zod';
import { defineOperation } from '../../../shared/operation.js';
import { copySubLine } from '../../../shared/policies/item-service.js';
import { id, optionalId } from '../../../shared/policies/schemas.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'copy_sub_line',
  summary: 'Copies a sub line instance and its items onto a property (or the revision)',
  permission: 'policies:write',
  input: z.object({
    revision_id: id(),
    property_id: optionalId(),
    sub_line_id: id(),
    sub_line_instance_id: id(),
    link_id: optionalId(),
    optional_items: z.array(z.union([z.string(), z.looseObject({ item_id: z.string().optional(), id: z.string().optional() })])).optional(),
  }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => copySubLine(principal, input),
});
