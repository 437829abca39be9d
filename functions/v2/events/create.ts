import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { DataWithMessages } from '../../../shared/platform/envelope.js';
import { eventTypePatterns, subscriberUrl, createSubscription, EVENTS_PERMISSION } from '../../../shared/events/index.js';
import { boundedString, LIMITS, optional, optionalId } from '../../../shared/platform/request-fields.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'create',
  summary:
    'Subscribe a URL to policy and money events (Administrators: any agency; an agency key: its own policies only). Answers the signing secret (whsec_...) this once; every delivery is signed with it (Standard Webhooks)',
  permission: EVENTS_PERMISSION,
  input: () => z.object({
    url: subscriberUrl(),
    event_types: eventTypePatterns(),
    description: optional(boundedString(LIMITS.nameLength)),
    agency_id: optionalId(),
  }),
  resources: { table: 'write', secrets: ['data-key'] },
  handle: async ({ url, event_types, description, agency_id }, { principal }) => {
    const created = await createSubscription(principal, { url, eventTypes: event_types, ...(description ? { description } : {}), ...(agency_id ? { agencyId: agency_id } : {}) });
    return new DataWithMessages(created, ['Store this signing secret now: it cannot be shown again']);
  },
});
