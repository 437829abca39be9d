import { defineOperation } from '../../../shared/platform/operation.js';
import { Reply } from '../../../shared/platform/envelope.js';
import { retrieveContactListSchema } from '../../../shared/contacts/schemas.js';
import { retrieveContactList } from '../../../shared/contacts/service.js';

export const handler = defineOperation({
  version: 'v1',
  name: 'retrieveContactList',
  summary: 'One page of the contacts of a role, in name order, optionally narrowed by a name search',
  permission: 'contacts:read',
  input: retrieveContactListSchema,
  resources: { table: 'read' },
  handle: async (input, { principal }) => {
    const page = await retrieveContactList(input, principal);
    // The spec puts the page at the top level; clients that read only `data` find it there too.
    return new Reply({ success: true, message: [], ...page, data: page });
  },
});
