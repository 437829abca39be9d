import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { id } from '../../../shared/platform/request-fields.js';
import { retrieveRevisionAnalysis } from '../../../shared/review/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'retrieve_revision_analysis',
  summary: 'Runs straight-through processing on a revision as it stands: stp_success, and stp_details naming each failed rule',
  permission: 'policies:read',
  input: () => z.object({ revision_id: id() }),
  resources: { table: 'read' },
  handle: async (input, { principal }) => retrieveRevisionAnalysis(principal, input.revision_id),
});
