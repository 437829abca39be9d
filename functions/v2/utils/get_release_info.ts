import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { config } from '../../../shared/platform/config.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'get_release_info',
  summary: 'The release tag and build time of the running service',
  permission: null,
  input: z.object({}),
  resources: { table: 'read' },
  handle: async () => ({ tag: config.releaseTag(), timestamp: config.releaseTimestamp() }),
});
