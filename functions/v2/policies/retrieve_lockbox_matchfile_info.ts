import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { Reply } from '../../../shared/platform/envelope.js';
import { boundedString, optional, pageSize } from '../../../shared/platform/request-fields.js';
import { lockboxMatchfile, lockboxMatchfilePage, MATCHFILE_LINES_PER_ANSWER } from '../../../shared/billing/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'retrieve_lockbox_matchfile_info',
  summary:
    'The lockbox matchfile: each policy with an amount due, by its digits-only number, with current due and minimum acceptable amounts in pennies and the always-reject flag. ' +
    `Without page_size or page_token, data is the whole list in policy-number order (a matchfile of more than ${MATCHFILE_LINES_PER_ANSWER} lines answers success false, asking for pages). ` +
    'With either, data is one page of the list and the answer carries next_page_token beside data: send it as page_token for the next page; null after the last page',
  permission: 'billing:write',
  input: () => z.object({
    page_size: optional(pageSize(MATCHFILE_LINES_PER_ANSWER).check(z.meta({ description: `Lines per page (at most ${MATCHFILE_LINES_PER_ANSWER}); only the last page holds fewer` }))),
    page_token: optional(boundedString(600, { nonEmpty: true }).check(z.meta({ description: "The previous answer's next_page_token: the next page of the same walk" }))),
  }),
  resources: { table: 'read' },
  handle: async (input) => {
    if (input.page_size === undefined && input.page_token === undefined) return lockboxMatchfile();
    const page = await lockboxMatchfilePage({ pageSize: input.page_size ?? MATCHFILE_LINES_PER_ANSWER, pageToken: input.page_token });
    return new Reply({ success: true, messages: [], data: page.records, next_page_token: page.nextPageToken });
  },
});
