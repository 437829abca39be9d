import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { id } from '../../../shared/platform/request-fields.js';
import { discardEndorsement } from '../../../shared/lifecycle/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'update_revision',
  summary: 'Discards an open endorsement: delete removes it, archive keeps it archived; the policy in force is unchanged',
  permission: 'policies:write',
  input: () => z.object({ revision_id: id(), action: z.enum(['delete', 'archive']) }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => discardEndorsement(principal, { revisionId: input.revision_id, action: input.action }),
});
