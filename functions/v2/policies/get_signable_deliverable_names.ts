import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { signableDeliverableNames } from '../../../shared/signatures/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'get_signable_deliverable_names',
  summary: 'The deliverable types a signature can be requested for (also at /api/v2/utils/get_signable_deliverable_names)',
  permission: null,
  input: () => z.object({}),
  resources: {},
  handle: async () => signableDeliverableNames(),
});
