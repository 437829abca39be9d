import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { subscriptionId, EVENTS_PERMISSION, removeSubscription } from '../../../shared/events/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'delete',
  summary: 'Delete a subscription: it receives nothing from now on',
  permission: EVENTS_PERMISSION,
  input: () => z.object({ subscription_id: subscriptionId() }),
  resources: { table: 'write' },
  handle: async ({ subscription_id }, { principal }) => removeSubscription(principal, subscription_id),
});
