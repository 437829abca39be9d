import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { eitherOf, id, optional, optionalId } from '../../../shared/platform/request-fields.js';
import { retrievePolicy } from '../../../shared/policies/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'retrieve_policy',
  summary: 'A policy by id or number, with its active (or chosen) revision and term',
  permission: 'policies:read',
  input: () => z
    .object({
      policy_id: optionalId(),
      policy_number: optional(id()),
      revision_state: optional(z.enum(['open', 'committed', 'archived', 'pending'])),
      revision_id: optionalId(),
    })
    .check(eitherOf('policy_id', 'policy_number')),
  resources: { table: 'read' },
  handle: async (input, { principal }) => retrievePolicy(principal, input),
});
