import { z } from 'zod';
import { defineOperation } from '../../../shared/operation.js';
import { createPolicy } from '../../../shared/policies/policy-service.js';
import { date, flag, optionalId, underwritingAnswer, underwritingOption, unlessBlank } from '../../../shared/policies/schemas.js';
import { CREATABLE_TERM_TYPES, RENEWAL_TERM_TYPES } from '../../../shared/policies/terms.js';

export const createPolicyInput = z.object({
  policy_number: unlessBlank(z.string().trim().min(1).optional()),
  manual_policy_number: flag(false),
  inception_date: unlessBlank(date().optional()),
  effective_date: unlessBlank(date().optional()),
  term_type: unlessBlank(z.enum(CREATABLE_TERM_TYPES).default('1 Year')),
  expiration_date: unlessBlank(date().optional()),
  renewal_term_type: unlessBlank(z.enum(RENEWAL_TERM_TYPES).default('1 Year')),
  is_renewal: flag(false),
  underwriting_questions: unlessBlank(z.array(underwritingAnswer).optional()),
  underwriting_options: unlessBlank(z.array(underwritingOption).optional()),
  as_agent: flag(false),
  policy_type_id: optionalId(),
  property_zip: unlessBlank(z.string().trim().min(1).optional()),
  external_system_reference: unlessBlank(z.string().optional()),
});

export const handler = defineOperation({
  version: 'v2',
  name: 'create_policy',
  summary: 'Creates a policy (a quote) with its first term and open revision, numbered from the carrier sequence',
  permission: 'quotes:write',
  input: createPolicyInput,
  resources: { table: 'write' },
  handle: async (input, { principal }) => createPolicy(principal, input),
});
