import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { Reply } from '../../../shared/platform/envelope.js';
import { boundedString, LIMITS, pageNumber, pageSize, builtOnFirstUse } from '../../../shared/platform/request-fields.js';
import { retrieveContactList } from '../../../shared/contacts/index.js';

/** pageSize up to 10000: real clients ask for everything at once. */
const MAX_PAGE_SIZE = 10_000;

const textOrEmpty = () => z.pipe(z.nullish(boundedString(LIMITS.nameLength, { trim: false })), z.transform((value) => value ?? ''));

export const retrieveContactListInput = builtOnFirstUse(() =>
  z.object({
    searchString: textOrEmpty(),
    filter: textOrEmpty(),
    currentPage: pageNumber(1),
    pageSize: pageSize(MAX_PAGE_SIZE),
  }),
);

export const handler = defineOperation({
  version: 'v1',
  name: 'retrieveContactList',
  summary: 'One page of the contacts of a role, in name order, optionally narrowed by a name search',
  permission: 'contacts:read',
  input: retrieveContactListInput,
  resources: { table: 'read' },
  handle: async (input, { principal }) => {
    const page = await retrieveContactList(input, principal);
    // The spec puts the page at the top level; clients that read only `data` find it there too.
    return new Reply({ success: true, message: [], ...page, data: page });
  },
});
