import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { id } from '../../../shared/platform/request-fields.js';
import { previewOpenRevisionMove } from '../../../shared/moves/open-revisions.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'preview_revision',
  summary: 'Beyond the vendor: what issuing an open endorsement would do, writing nothing: per item the old and new annual premium and the additional or return premium, the new annual and written totals, the invoices that would change and the documents produced',
  permission: 'policies:read',
  input: () => z.object({ revision_id: id() }),
  resources: { table: 'read' },
  handle: async (input, { principal }) => previewOpenRevisionMove(principal, input.revision_id),
});
