import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { subscriptionId, EVENTS_PERMISSION, rotateSecret } from '../../../shared/events/index.js';
import { DataWithMessages } from '../../../shared/platform/envelope.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'rotate_secret',
  summary: "A new signing secret for a subscription, answered this once; for 24 hours deliveries carry a signature by the old secret and one by the new",
  permission: EVENTS_PERMISSION,
  input: () => z.object({ subscription_id: subscriptionId() }),
  resources: { table: 'write', secrets: ['data-key'] },
  handle: async ({ subscription_id }, { principal }) =>
    new DataWithMessages(await rotateSecret(principal, subscription_id), ['Store this signing secret now: it cannot be shown again']),
});
