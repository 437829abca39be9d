import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/operation.js';
import { Reply } from '../../../shared/platform/envelope.js';
import { boundedString, LIMITS, pageNumber, pageSize } from '../../../shared/platform/request-fields.js';
import { MAX_PAGE_SIZE } from '../../../shared/contacts/schemas.js';
import { retrieveContactList } from '../../../shared/contacts/service.js';

const textOrEmpty = () => z.pipe(z.nullish(boundedString(LIMITS.nameLength, { trim: false })), z.transform((value) => value ?? ''));

export const retrieveContactListInput = z.object({
  searchString: textOrEmpty(),
  filter: textOrEmpty(),
  currentPage: pageNumber(1),
  pageSize: pageSize(MAX_PAGE_SIZE),
});

export const handler = defineOperation({
  version: 'v1',
  name: 'retrieveContactList',
  summary: 'One page of the contacts of a role, in name order, optionally narrowed by a name search',
  permission: 'contacts:read',
  input: retrieveContactListInput,
  resources: { table: 'read' },
  handle: async (input, { principal }) => new Reply({ success: true, message: [], ...(await retrieveContactList(input, principal)) }),
});
