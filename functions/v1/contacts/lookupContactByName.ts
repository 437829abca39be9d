import { defineOperation } from '../../../shared/operation.js';
import { lookupContactByNameSchema } from '../../../shared/contacts/schemas.js';
import { lookupContactByName } from '../../../shared/contacts/service.js';

export const handler = defineOperation({
  version: 'v1',
  name: 'lookupContactByName',
  summary: 'Contacts of a role and type whose name words begin with the words given (at most 100)',
  permission: 'contacts:read',
  input: lookupContactByNameSchema,
  resources: { table: 'read' },
  handle: (input, { principal }) => lookupContactByName(input, principal),
});
