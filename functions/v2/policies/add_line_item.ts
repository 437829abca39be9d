import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { optionalFlag, optionalUuid, uuid } from '../../../shared/platform/request-fields.js';
import { addLineItem } from '../../../shared/policies/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'add_line_item',
  summary: 'Adds a catalog item to a property or the revision, with its sub line when asked',
  permission: 'policies:write',
  input: () => z.object({
    revision_id: uuid(),
    property_id: optionalUuid(),
    sub_line_id: optionalUuid(),
    item_id: uuid(),
    link_id: optionalUuid(),
    check_for_sub_line: optionalFlag(),
    /** The spelling some clients send. */
    check_for_subline: optionalFlag(),
  }),
  resources: { table: 'write' },
  handle: async ({ check_for_sub_line, check_for_subline, ...input }, { principal }) =>
    addLineItem(principal, { ...input, check_for_sub_line: check_for_sub_line ?? check_for_subline ?? false }),
});
