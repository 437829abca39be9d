import { z } from 'zod';
import { defineOperation } from '../../../shared/operation.js';
import { addLineItem } from '../../../shared/policies/item-service.js';
import { id, optionalFlag, optionalId } from '../../../shared/policies/schemas.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'add_line_item',
  summary: 'Adds a catalog item to a property or the revision, with its sub line when asked',
  permission: 'policies:write',
  input: z.object({
    revision_id: id(),
    property_id: optionalId(),
    sub_line_id: optionalId(),
    item_id: id(),
    link_id: optionalId(),
    check_for_sub_line: optionalFlag(),
    /** The spelling some clients send. */
    check_for_subline: optionalFlag(),
  }),
  resources: { table: 'write' },
  handle: async ({ check_for_sub_line, check_for_subline, ...input }, { principal }) =>
    addLineItem(principal, { ...input, check_for_sub_line: check_for_sub_line ?? check_for_subline ?? false }),
});
