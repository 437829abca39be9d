import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { id } from '../../../shared/platform/request-fields.js';
import { removeLineItem } from '../../../shared/policies/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'remove_line_item',
  summary: 'Beyond the vendor: takes an optional coverage off an open revision (a quote, or an endorsement removing it); mandatory and automatic items stay',
  permission: 'policies:write',
  input: () => z.object({ revision_id: id(), line_item_id: id() }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => removeLineItem(principal, input),
});
