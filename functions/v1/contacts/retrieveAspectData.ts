import { defineOperation } from '../../../shared/operation.js';
import { retrieveAspectDataSchema } from '../../../shared/contacts/schemas.js';
import { retrieveAspectData } from '../../../shared/contacts/service.js';

export const handler = defineOperation({
  version: 'v1',
  name: 'retrieveAspectData',
  summary: 'The aspect data of a contact for a role (or for all its roles), with its policies',
  permission: 'contacts:read',
  input: retrieveAspectDataSchema,
  resources: { table: 'read' },
  handle: (input, { principal }) => retrieveAspectData(input, principal),
});
