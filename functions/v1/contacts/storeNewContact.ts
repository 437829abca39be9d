import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { Reply } from '../../../shared/platform/envelope.js';
import { looseText } from '../../../shared/platform/request-fields.js';
import { contactContentSchema, storeNewContact } from '../../../shared/contacts/index.js';

export const handler = defineOperation({
  version: 'v1',
  name: 'storeNewContact',
  summary: 'Creates a contact with its addresses, phones, emails and roles; answers its id and the ids of its addresses',
  permission: 'contacts:write',
  input: () => z.object({
    role: z.nullish(looseText()),
    content: contactContentSchema(),
  }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => {
    const { id, address_ids } = await storeNewContact(input, principal);
    // The spec puts these at the top level; clients that read only `data` find them there too.
    return new Reply({ success: true, message: [], id, address_ids, data: { id, address_ids } });
  },
});
