import { defineOperation } from '../../../shared/operation.js';
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
  handle: async (input, { principal }) => new Reply({ success: true, message: [], ...(await retrieveContactList(input, principal)) }),
});
