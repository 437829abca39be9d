import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/operation.js';
import { Reply } from '../../../shared/platform/envelope.js';
import { id, optional, wholeNumber } from '../../../shared/platform/request-fields.js';
import { lockboxMatchfile, MATCHFILE_PAGE_LINES } from '../../../shared/billing/service.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'retrieve_lockbox_matchfile_info',
  summary:
    'The lockbox matchfile: each policy with an amount due, by its digits-only number, with current due and minimum acceptable amounts in pennies and the always-reject flag, in policy number order. A matchfile of more than 40,000 lines (or of more than `limit`) comes in pages: the answer then carries `next_after`, the policy number to send as `after` for the next page',
  permission: 'billing:write',
  input: z.object({
    after: optional(id('must be the next_after of the previous page')),
    limit: optional(wholeNumber({ min: 1, max: MATCHFILE_PAGE_LINES })),
  }),
  resources: { table: 'read' },
  handle: async (input) => {
    const page = await lockboxMatchfile(new Date(), { ...(input.after !== undefined ? { after: input.after } : {}), ...(input.limit !== undefined ? { limit: input.limit } : {}) });
    if (page.nextAfter === undefined) return page.lines;
    // The envelope as always, the page's lines as its data; where to go on beside them.
    return new Reply({ success: true, messages: [`More lines follow: send after "${page.nextAfter}" for the next page`], data: page.lines, next_after: page.nextAfter });
  },
});
