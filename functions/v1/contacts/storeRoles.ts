import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { uuid, builtOnFirstUse } from '../../../shared/platform/request-fields.js';
import { storeRolesKeepingCredentials } from '../../../shared/auth/index.js';
import { roleAspectsSchema } from '../../../shared/contacts/index.js';

/** The contact and role, and the role aspects to write (only the keys passed change). */
export const storeRolesInput = builtOnFirstUse(() => z.object({ contactId: uuid(), roleId: uuid(), ...roleAspectsSchema().shape }));

export const handler = defineOperation({
  version: 'v1',
  name: 'storeRoles',
  summary: "Updates a contact's role aspect data (only the keys passed); answers the list of error messages, empty on success",
  permission: 'contacts:write',
  input: storeRolesInput,
  // The contract's answer is the list of error messages, on every kind of failure.
  failureData: (messages) => messages,
  resources: { table: 'write' },
  handle: async (input, { principal }) => {
    // The contact's credentials carry a copy of its roles and standing: the change rewrites them in its transaction.
    await storeRolesKeepingCredentials(input, principal);
    return [] as string[];
  },
});
