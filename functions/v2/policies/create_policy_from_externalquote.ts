import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import {
  date,
  decimal,
  flagOr,
  freeForm,
  freeFormValue,
  id,
  list,
  money,
  name,
  optional,
  optionalId,
  requiredWhen,
  withDefault,
  builtOnFirstUse,
} from '../../../shared/platform/request-fields.js';
import { createPolicyFromExternalQuote, underwritingAnswers, underwritingOptions, yearBuilt, CREATABLE_TERM_TYPES, RENEWAL_TERM_TYPES } from '../../../shared/policies/index.js';

const amount = () => optional(money());
const quoteItem = builtOnFirstUse(() => z.looseObject({
  item_id: z.optional(id()),
  id: z.optional(id()),
  name: z.optional(name()),
  limit: amount(),
  deductible: amount(),
  premium: amount(),
  annual_premium: amount(),
  written_premium: amount(),
}));
const quoteRisk = builtOnFirstUse(() => z.looseObject({
  name: optional(name()),
  latitude: optional(decimal({ min: -90, max: 90 })),
  longitude: optional(decimal({ min: -180, max: 180 })),
  year_built: optional(yearBuilt()),
  items: z.optional(list(quoteItem())),
  fields: z.optional(z.record(z.string(), z.unknown())),
  questions: z.optional(z.record(z.string(), z.unknown())),
}));

/** The externally rated quote: free-form beyond the fields read here, within the free-form limits (no size cap but the body's). */
const quote = builtOnFirstUse(() => freeForm(
  z.object({
    policy_type_id: optionalId(),
    fields: z.prefault(z.record(z.string(), z.unknown()), {}),
    risks: z.prefault(list(quoteRisk()), []),
    items: z.prefault(list(quoteItem()), []),
    premiums: z.prefault(z.object({ annual_premium: amount(), written_premium: amount(), annual_fee: amount(), written_fee: amount() }), {} as never),
    underwriting_questions: optional(underwritingAnswers()),
  }),
  { maxChars: Number.POSITIVE_INFINITY },
));

export const handler = defineOperation({
  version: 'v2',
  name: 'create_policy_from_externalquote',
  summary: 'Creates a policy from an externally rated quote (risks, fields, items, premiums), keeping its premiums',
  permission: 'quotes:write',
  input: () => z
    .object({
      quote: quote(),
      inception_date: optional(date()),
      effective_date: optional(date()),
      term_type: withDefault(z.enum(CREATABLE_TERM_TYPES), '1 Year'),
      expiration_date: optional(date()),
      renewal_term_type: withDefault(z.enum(RENEWAL_TERM_TYPES), '1 Year'),
      transaction_type: withDefault(z.enum(['new_business', 'rewrite']), 'new_business'),
      policy_number: optional(id()),
      manual_policy_number: flagOr(false),
      policy_type_id: optionalId(),
      as_agent: flagOr(false),
      underwriting_options: optional(underwritingOptions()),
      external_system_reference: optional(id()),
      postback: optional(freeFormValue()).check(
        z.describe("Accepted for compatibility with the vendor's interface, and ignored: the created policy is this call's answer, and nothing is posted anywhere."),
      ),
    })
    .check(requiredWhen('expiration_date', (input) => input.term_type === 'Custom', 'term_type is Custom')),
  resources: { table: 'write' },
  handle: async ({ postback: _ignored, ...input }, { principal }) => createPolicyFromExternalQuote(principal, input),
});
