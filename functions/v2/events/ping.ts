import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { subscriptionId, EVENTS_PERMISSION, pingSubscription } from '../../../shared/events/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'ping',
  summary: "Send a signed ping event to a subscription's URL now and answer what came back (status code, duration, the answer's first characters)",
  permission: EVENTS_PERMISSION,
  input: () => z.object({ subscription_id: subscriptionId() }),
  resources: { table: 'read', secrets: ['data-key'] },
  handle: async ({ subscription_id }, { principal }) => pingSubscription(principal, subscription_id),
});
