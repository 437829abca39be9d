import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { instant, subscriptionId, EVENTS_PERMISSION, redeliverFailed } from '../../../shared/events/index.js';
import { optional } from '../../../shared/platform/request-fields.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'redeliver_failed',
  summary: "Send again every failed delivery of a subscription (of events since `since`, an ISO date or instant), each policy's in order",
  permission: EVENTS_PERMISSION,
  input: () => z.object({ subscription_id: subscriptionId(), since: optional(instant()) }),
  resources: { table: 'write', queues: ['event-retries'], secrets: ['data-key'] },
  handle: async ({ subscription_id, since }, { principal }) => redeliverFailed(principal, { subscriptionId: subscription_id, ...(since ? { since } : {}) }),
});
