import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { cursor, eventTypePatterns, EVENTS_PERMISSION, listEvents } from '../../../shared/events/index.js';
import { optional } from '../../../shared/platform/request-fields.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'list_events',
  summary: 'The pull stream for those who cannot receive webhooks: events after the cursor (an event id; next_cursor answers the last), oldest first, 100 a page, of the types given (patterns such as policy.*); an agency key sees its own policies only',
  permission: EVENTS_PERMISSION,
  input: () => z.object({ after: optional(cursor()), types: optional(eventTypePatterns()) }),
  resources: { table: 'read' },
  handle: async ({ after, types }, { principal }) => listEvents(principal, { ...(after ? { after } : {}), ...(types ? { types } : {}) }),
});
