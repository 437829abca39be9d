import * as z from 'zod/mini';
import { selectRoleOfGrant } from '../../../shared/auth/index.js';
import { DataWithMessages } from '../../../shared/platform/envelope.js';
import { defineOperation } from '../../../shared/define-operation.js';
import { id } from '../../../shared/platform/request-fields.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'select_my_role',
  summary: "Bind one of the contact's roles to the bearer token's OAuth grant; its later calls act with that role only",
  permission: null,
  input: () => z.object({
    role_id: id('must be a role id returned by retrieve_my_roles'),
  }),
  resources: { table: 'write' },
  handle: async ({ role_id }, { principal }) => {
    const role = await selectRoleOfGrant(principal, role_id);
    return new DataWithMessages({ role_id: role.id, name: role.name, permissions: role.permissions }, [
      `Role ${role.name} is selected: calls with this OAuth client now act with its permissions only`,
    ]);
  },
});
