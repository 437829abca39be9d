import * as z from 'zod/mini';
import { rolesOfGrant } from '../../../shared/auth/index.js';
import { defineOperation } from '../../../shared/define-operation.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'retrieve_my_roles',
  summary: "Roles the bearer token's contact holds, marking the one selected for its OAuth grant",
  permission: null,
  input: () => z.object({}),
  resources: { table: 'read' },
  handle: async (_input, { principal }) => rolesOfGrant(principal),
});
