import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { id } from '../../../shared/platform/request-fields.js';
import { requestLossAnalysis } from '../../../shared/review/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'async_request_loss_analysis',
  summary: "Queues a loss analysis of an open revision's properties and answers its job_id; retrieve_revision_details shows the result once the job has run",
  permission: 'policies:write',
  input: () => z.object({ revision_id: id() }),
  resources: { table: 'write', queues: ['loss-analysis'] },
  handle: async (input, { principal }) => requestLossAnalysis(principal, input.revision_id),
});
