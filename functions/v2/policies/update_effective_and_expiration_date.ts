import { z } from 'zod';
import { defineOperation } from '../../../shared/operation.js';
import { updateEffectiveAndExpirationDate } from '../../../shared/policies/item-service.js';
import { date, id, optionalId, unlessBlank } from '../../../shared/policies/schemas.js';
import { TERM_TYPES } from '../../../shared/policies/terms.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'update_effective_and_expiration_date',
  summary: "Moves the dates of a quote's term; answers the term type and length deduced from them",
  permission: 'policies:write',
  input: z.object({
    policy_id: id(),
    effective_date: unlessBlank(date().optional()),
    expiration_date: unlessBlank(date().optional()),
    policy_term_type: unlessBlank(z.enum(TERM_TYPES).optional()),
    policy_type_id: optionalId(),
  }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => updateEffectiveAndExpirationDate(principal, input),
});
