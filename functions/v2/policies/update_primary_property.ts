import * as z from 'zod/mini';
import { Reply } from '../../../shared/platform/envelope.js';
import { defineOperation } from '../../../shared/define-operation.js';
import { uuid } from '../../../shared/platform/request-fields.js';
import { updatePrimaryProperty } from '../../../shared/policies/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'update_primary_property',
  summary: 'Makes a property the primary property of its revision',
  permission: 'policies:write',
  input: () => z.object({ property_id: uuid() }),
  resources: { table: 'write' },
  // The spec documents this answer as `success` and a single-string `messages`.
  handle: async (input, { principal }) => new Reply({ success: true, messages: await updatePrimaryProperty(principal, input.property_id) }),
});
