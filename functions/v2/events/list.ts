import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { EVENTS_PERMISSION, listSubscriptions } from '../../../shared/events/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'list',
  summary: 'The event subscriptions the caller manages (never their secrets)',
  permission: EVENTS_PERMISSION,
  input: () => z.object({}),
  resources: { table: 'read' },
  handle: async (_input, { principal }) => listSubscriptions(principal),
});
