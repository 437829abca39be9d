import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { date, optional, optionalId, uuid } from '../../../shared/platform/request-fields.js';
import { updateEffectiveAndExpirationDate, TERM_TYPES } from '../../../shared/policies/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'update_effective_and_expiration_date',
  summary: "Moves the dates of a quote's term; answers the term type and length deduced from them",
  permission: 'policies:write',
  input: () => z.object({
    policy_id: uuid(),
    effective_date: optional(date()),
    expiration_date: optional(date()),
    policy_term_type: optional(z.enum(TERM_TYPES)),
    policy_type_id: optionalId(),
  }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => updateEffectiveAndExpirationDate(principal, input),
});
