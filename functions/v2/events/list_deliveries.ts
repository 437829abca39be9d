import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { cursor, subscriptionId, EVENTS_PERMISSION, listDeliveries } from '../../../shared/events/index.js';
import { optional } from '../../../shared/platform/request-fields.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'list_deliveries',
  summary: "A subscription's deliveries, oldest event first, each with every attempt (time, status code, duration, response excerpt); 100 a page, next_cursor for the next",
  permission: EVENTS_PERMISSION,
  input: () => z.object({
    subscription_id: subscriptionId(),
    status: optional(z.enum(['pending', 'delivered', 'failed'], { error: 'must be pending, delivered or failed' })),
    after: optional(cursor()),
  }),
  resources: { table: 'read' },
  handle: async ({ subscription_id, status, after }, { principal }) =>
    listDeliveries(principal, { subscriptionId: subscription_id, ...(status ? { status } : {}), ...(after ? { after } : {}) }),
});
