import * as z from 'zod/mini';
import { permissionsOfGrant } from '../../../shared/auth/index.js';
import { defineOperation } from '../../../shared/define-operation.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'retrieve_my_permissions',
  summary: "Effective permissions of the bearer token's OAuth grant, and the roles they come from",
  permission: null,
  input: () => z.object({}),
  resources: { table: 'read' },
  handle: async (_input, { principal }) => {
    const granted = await permissionsOfGrant(principal);
    return {
      contact_id: granted.contactId,
      permissions: granted.permissions,
      roles: granted.roles,
      selected_role_id: granted.selectedRoleId,
    };
  },
});
