import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { name } from '../../../shared/platform/request-fields.js';
import { lookupContactByName } from '../../../shared/contacts/index.js';

export const handler = defineOperation({
  version: 'v1',
  name: 'lookupContactByName',
  summary: 'Contacts of a role and type whose name words begin with the words given (at most 100)',
  permission: 'contacts:read',
  input: () => z.object({
    name: name(),
    role: name(),
    role_type: z.pipe(
      z.string().check(z.trim(), z.maxLength(32), z.toLowerCase(), z.meta({ examples: ['individual'] })),
      z.enum(['individual', 'organization'], { error: 'must be individual or organization' }),
    ),
  }),
  resources: { table: 'read' },
  handle: (input, { principal }) => lookupContactByName(input, principal),
});
