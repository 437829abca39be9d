import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { config } from '../../../shared/platform/config.js';
import { clock } from '../../../shared/platform/clock.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'get_release_info',
  summary: 'The release tag and build time of the running service',
  permission: null,
  input: () => z.object({}),
  resources: { table: 'read' },
  // `today`: the service's date (its clock: the real date in AWS, SERVICE_CLOCK's locally), which the README's examples count from.
  handle: async () => ({ tag: config.releaseTag(), timestamp: config.releaseTimestamp(), today: clock.today() }),
});
