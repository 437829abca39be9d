import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { eventTypePatterns, subscriberUrl, subscriptionId, EVENTS_PERMISSION, updateSubscription } from '../../../shared/events/index.js';
import { boundedString, LIMITS, optional, optionalFlag } from '../../../shared/platform/request-fields.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'update',
  summary: "Change a subscription's URL, event types, description or whether it is active (an inactive one receives nothing)",
  permission: EVENTS_PERMISSION,
  input: () => z.object({
    subscription_id: subscriptionId(),
    url: optional(subscriberUrl()),
    event_types: optional(eventTypePatterns()),
    description: optional(boundedString(LIMITS.nameLength)),
    active: optionalFlag(),
  }),
  resources: { table: 'write' },
  handle: async ({ subscription_id, url, event_types, description, active }, { principal }) =>
    updateSubscription(principal, {
      subscriptionId: subscription_id,
      ...(url !== undefined ? { url } : {}),
      ...(event_types !== undefined ? { eventTypes: event_types } : {}),
      ...(description !== undefined ? { description } : {}),
      ...(active !== undefined ? { active } : {}),
    }),
});
