import { z } from 'zod';
import { defineOperation } from '../../../shared/operation.js';
import { createPolicy } from '../../../shared/policies/policy-service.js';
import { date, flag, optionalId, underwritingAnswer, underwritingOption, unlessBlank } from '../../../shared/policies/schemas.js';
import { CREATABLE_TERM_TYPES, RENEWAL_TERM_TYPES } from '../../../shared/policies/terms.js';

const amount = z.union([z.number(), z.string(), z.null()]).optional();
const quoteItem = z.looseObject({
  item_id: z.string().optional(),
  id: z.string().optional(),
  name: z.string().optional(),
  limit: amount,
  deductible: amount,
  premium: amount,
  annual_premium: amount,
  written_premium: amount,
});

export const handler = defineOperation({
  version: 'v2',
  name: 'create_policy_from_externalquote',
  summary: 'Creates a policy from an externally rated quote (risks, fields, items, premiums), keeping its premiums',
  permission: 'quotes:write',
  input: z.object({
    quote: z.object({
      policy_type_id: optionalId(),
      fields: z.record(z.string(), z.unknown()).default({}),
      risks: z.array(z.looseObject({ items: z.array(quoteItem).optional(), fields: z.record(z.string(), z.unknown()).optional(), questions: z.record(z.string(), z.unknown()).optional() })).default([]),
      items: z.array(quoteItem).default([]),
      premiums: z
        .object({ annual_premium: amount, written_premium: amount, annual_fee: amount, written_fee: amount })
        .default({}),
      underwriting_questions: unlessBlank(z.array(underwritingAnswer).optional()),
    }),
    inception_date: unlessBlank(date().optional()),
    effective_date: unlessBlank(date().optional()),
    term_type: unlessBlank(z.enum(CREATABLE_TERM_TYPES).default('1 Year')),
    expiration_date: unlessBlank(date().optional()),
    renewal_term_type: unlessBlank(z.enum(RENEWAL_TERM_TYPES).default('1 Year')),
    transaction_type: unlessBlank(z.enum(['new_business', 'rewrite']).default('new_business')),
    policy_number: unlessBlank(z.string().trim().min(1).optional()),
    manual_policy_number: flag(false),
    policy_type_id: optionalId(),
    as_agent: flag(false),
    underwriting_options: unlessBlank(z.array(underwritingOption).optional()),
    external_system_reference: unlessBlank(z.string().optional()),
  }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => {
    const { quote } = input;
    const premiums = Object.fromEntries(Object.entries(quote.premiums).filter(([, value]) => value !== null && value !== undefined)) as Record<string, string | number>;
    return createPolicy(
      principal,
      {
        ...input,
        policy_type_id: input.policy_type_id ?? quote.policy_type_id,
        is_renewal: false,
        underwriting_questions: quote.underwriting_questions,
      },
      { transactionType: input.transaction_type, risks: quote.risks, items: quote.items, premiums, fields: quote.fields },
    );
  },
});
