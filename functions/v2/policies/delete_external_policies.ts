import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { id, list } from '../../../shared/platform/request-fields.js';
import { deleteExternalPolicies } from '../../../shared/policy-groups/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'delete_external_policies',
  summary: 'Deletes external policies by number (and their group memberships); data lists the numbers that could not be deleted',
  permission: 'policies:write',
  input: () => z.object({ policies: list(z.pipe(z.union([id(), z.number()]), z.transform((value) => String(value)))) }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => deleteExternalPolicies(principal, input.policies),
});
