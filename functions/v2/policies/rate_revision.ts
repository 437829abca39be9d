import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { id } from '../../../shared/platform/request-fields.js';
import { rateStoredRevision } from '../../../shared/policies/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'rate_revision',
  summary: 'Rates an open revision and stores every item premium with the running total of each rating step',
  permission: 'policies:write',
  input: () => z.object({ revision_id: id() }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => rateStoredRevision(principal, input.revision_id),
});
