import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { eitherOf, id, optional, optionalId } from '../../../shared/platform/request-fields.js';
import { retrievePolicyTerms } from '../../../shared/policies/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'retrieve_policy_terms',
  summary: 'The terms of a policy, each with its revisions',
  permission: 'policies:read',
  input: () => z.object({ policy_id: optionalId(), policy_number: optional(id()) }).check(eitherOf('policy_id', 'policy_number')),
  resources: { table: 'read' },
  handle: async (input, { principal }) => retrievePolicyTerms(principal, input),
});
