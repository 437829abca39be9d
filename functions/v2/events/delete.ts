import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { EVENTS_PERMISSION, removeSubscription } from '../../../shared/events/service.js';
import { subscriptionId } from '../../../shared/events/fields.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'delete',
  summary: 'Delete a subscription: it receives nothing from now on',
  permission: EVENTS_PERMISSION,
  input: z.object({ subscription_id: subscriptionId() }),
  resources: { table: 'write' },
  handle: async ({ subscription_id }, { principal }) => removeSubscription(principal, subscription_id),
});
