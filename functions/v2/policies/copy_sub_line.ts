import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { id, list, optionalId } from '../../../shared/platform/request-fields.js';
import { copySubLine, optionalItem } from '../../../shared/policies/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'copy_sub_line',
  summary: 'Copies a sub line instance and its items onto a property (or the revision)',
  permission: 'policies:write',
  input: () => z.object({
    revision_id: id(),
    property_id: optionalId(),
    sub_line_id: id(),
    sub_line_instance_id: id(),
    link_id: optionalId(),
    optional_items: z.optional(list(optionalItem())),
  }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => copySubLine(principal, input),
});
