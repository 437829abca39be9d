import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { BusinessRuleError } from '../../../shared/platform/errors.js';
import { flagOr, optionalId } from '../../../shared/platform/request-fields.js';
import { requoteResult, quoteInfo, requoteQuote } from '../../../shared/quotes/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'requote_extended',
  summary:
    'Replaces the unissued quote named by policy_number with a new quote built from quote_info, in one transaction (the old number no longer finds anything); answers the quote result without rating_details and stp',
  permission: 'quotes:write',
  input: () => z.object({
    quote_info: quoteInfo(),
    // Existing clients name the quote to replace inside quote_info; beside it is accepted too.
    policy_number: optionalId(),
    run_uw_rules: flagOr(true),
    hard_geoservice_bypass: flagOr(false),
  }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => {
    const policyNumber = input.policy_number ?? input.quote_info.policy_number;
    if (!policyNumber) throw new BusinessRuleError('quote_info.policy_number: give the number of the quote to replace');
    const result = await requoteQuote(principal, policyNumber, input.quote_info, {
      extended: true,
      runUwRules: input.run_uw_rules,
      hardGeoBypass: input.hard_geoservice_bypass,
    });
    return requoteResult(result);
  },
});
