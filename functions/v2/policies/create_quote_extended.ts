import * as z from 'zod/mini';
import { defineIdempotentOperation } from '../../../shared/define-operation.js';
import { flagOr } from '../../../shared/platform/request-fields.js';
import { quoteInfo, createQuote, requoteQuote, withMoratoriumWarnings } from '../../../shared/quotes/index.js';

export const handler = defineIdempotentOperation({
  version: 'v2',
  name: 'create_quote_extended',
  summary:
    'Creates and rates a quote named by line, policy type and item names; answers rating_details per requested step, identifiers, forms and the STP result. run_stateless rates without storing anything; run_uw_rules false skips STP; requote with quote_info.policy_number replaces that quote',
  permission: 'quotes:write',
  input: () => z.object({
    quote_info: quoteInfo(),
    requote: flagOr(false),
    run_uw_rules: flagOr(true),
    run_stateless: flagOr(false),
    soft_geoservice_bypass: flagOr(false),
    hard_geoservice_bypass: flagOr(false),
  }),
  resources: { table: 'write' },
  // A retry after a 503 or a lost answer, with the same Idempotency-Key, answers the quote made the first time instead of making a second;
  // a quote rated without storing anything (run_stateless) is simply rated again.
  idempotent: { scope: 'create_quote_extended', inProgress: 'The quote sent earlier with this Idempotency-Key is still being made', when: (input) => !input.run_stateless },
  handle: async (input, { principal }) => {
    const options = { extended: true, runUwRules: input.run_uw_rules, hardGeoBypass: input.hard_geoservice_bypass };
    // requote true with a policy_number replaces that quote, as requote_extended does.
    const quoted =
      input.requote && !input.run_stateless && input.quote_info.policy_number
        ? requoteQuote(principal, input.quote_info.policy_number, input.quote_info, options)
        : createQuote(principal, input.quote_info, { ...options, runStateless: input.run_stateless });
    return withMoratoriumWarnings(quoted, input.quote_info);
  },
});
