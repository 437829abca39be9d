import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { id } from '../../../shared/platform/request-fields.js';
import { revisionStatus } from '../../../shared/lifecycle/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'retrieve_revision_status',
  summary: 'A revision\'s state: open, committed (in force from its date), superseded (replaced, keeping its earlier period) or archived, with its premium change',
  permission: 'policies:read',
  input: () => z.object({ revision_id: id() }),
  resources: { table: 'read' },
  handle: async (input, { principal }) => revisionStatus(principal, input.revision_id),
});
