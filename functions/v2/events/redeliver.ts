import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { EVENTS_PERMISSION, redeliver } from '../../../shared/events/index.js';
import { boundedString } from '../../../shared/platform/request-fields.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'redeliver',
  summary: 'Send a delivery again now (in its policy order): a delivered or failed one restarts its retry schedule; one still being retried is sent at once, its retries ended by a success and left as they were by a failure; answers the delivery with the new attempt',
  permission: EVENTS_PERMISSION,
  input: () => z.object({ delivery_id: boundedString(200, { nonEmpty: true, typeMessage: 'must be a delivery_id from list_deliveries' }) }),
  resources: { table: 'write', queues: ['event-retries'], secrets: ['data-key'] },
  handle: async ({ delivery_id }, { principal }) => redeliver(principal, delivery_id),
});
