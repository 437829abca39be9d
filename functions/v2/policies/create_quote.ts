import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { flagOr } from '../../../shared/platform/request-fields.js';
import { fromSimpleQuote, simpleQuoteInfo, createQuote, withMoratoriumWarnings } from '../../../shared/quotes/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'create_quote',
  summary:
    'Creates and rates a quote for one named insured, named by line, policy type and item names (limit, deductible, questions); answers quote_number, policy_id, total and items',
  permission: 'quotes:write',
  input: () => z.object({
    quote_info: simpleQuoteInfo(),
    soft_geoservice_bypass: flagOr(false),
    hard_geoservice_bypass: flagOr(false),
  }),
  resources: { table: 'write' },
  handle: async ({ quote_info, hard_geoservice_bypass }, { principal }) => {
    const info = fromSimpleQuote(quote_info);
    const quoted = createQuote(principal, info, {
      extended: false,
      runUwRules: true,
      runStateless: false,
      // The bypass may come inside quote_info (as the spec lists it) or beside it.
      hardGeoBypass: hard_geoservice_bypass || quote_info.hard_geoservice_bypass === true,
    });
    return withMoratoriumWarnings(quoted, info);
  },
});
