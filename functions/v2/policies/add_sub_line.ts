import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { list, optionalUuid, uuid } from '../../../shared/platform/request-fields.js';
import { addSubLine, optionalItem } from '../../../shared/policies/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'add_sub_line',
  summary: 'Adds a sub line to a property or the revision, with its mandatory and the chosen optional items',
  permission: 'policies:write',
  input: () => z.object({
    revision_id: uuid(),
    property_id: optionalUuid(),
    sub_line_id: uuid(),
    link_id: optionalUuid(),
    optional_items: z.optional(list(optionalItem())),
  }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => addSubLine(principal, input),
});
