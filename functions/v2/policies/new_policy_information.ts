import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { newPolicyInformation } from '../../../shared/policies/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'new_policy_information',
  summary: 'The next policy number (not yet allocated) and the effective-date versions of the line',
  permission: 'policies:read',
  input: () => z.object({}),
  resources: { table: 'read' },
  handle: async () => newPolicyInformation(),
});
