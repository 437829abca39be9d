import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/operation.js';
import { lockboxMatchfile } from '../../../shared/billing/service.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'retrieve_lockbox_matchfile_info',
  summary: 'The lockbox matchfile: each policy with an amount due, by its digits-only number, with current due and minimum acceptable amounts in pennies and the always-reject flag',
  permission: 'billing:write',
  input: z.object({}),
  resources: { table: 'read' },
  handle: async () => lockboxMatchfile(),
});
