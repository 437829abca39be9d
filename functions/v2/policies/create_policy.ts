import * as z from 'zod/mini';
import { defineIdempotentOperation } from '../../../shared/define-operation.js';
import { boundedString, date, flagOr, id, optional, optionalId, requiredWhen, withDefault, builtOnFirstUse } from '../../../shared/platform/request-fields.js';
import { createPolicy, underwritingAnswers, underwritingOptions, CREATABLE_TERM_TYPES, RENEWAL_TERM_TYPES } from '../../../shared/policies/index.js';

export const createPolicyInput = builtOnFirstUse(() =>
  z
    .object({
      policy_number: optional(id()),
      manual_policy_number: flagOr(false),
      inception_date: optional(date()),
      effective_date: optional(date()),
      term_type: withDefault(z.enum(CREATABLE_TERM_TYPES), '1 Year'),
      expiration_date: optional(date()),
      renewal_term_type: withDefault(z.enum(RENEWAL_TERM_TYPES), '1 Year'),
      is_renewal: flagOr(false),
      underwriting_questions: optional(underwritingAnswers()),
      underwriting_options: optional(underwritingOptions()),
      as_agent: flagOr(false),
      policy_type_id: optionalId(),
      property_zip: optional(boundedString(20, { nonEmpty: true })),
      external_system_reference: optional(id()),
    })
    .check(requiredWhen('expiration_date', (input) => input.term_type === 'Custom', 'term_type is Custom')),
);

export const handler = defineIdempotentOperation({
  version: 'v2',
  name: 'create_policy',
  summary: 'Creates a policy (a quote) with its first term and open revision, numbered from the carrier sequence',
  permission: 'quotes:write',
  input: createPolicyInput,
  resources: { table: 'write' },
  // A retry after a 503 or a lost answer, with the same Idempotency-Key, answers the policy made the first time instead of making a second.
  idempotent: { scope: 'create_policy', inProgress: 'The policy sent earlier with this Idempotency-Key is still being made' },
  handle: async (input, { principal }) => createPolicy(principal, input),
});
