import * as z from 'zod/mini';
import { GROUP_DIMENSIONS, premiumReport } from '../../../shared/books/index.js';
import { defineOperation } from '../../../shared/define-operation.js';
import { boundedString, list, optional, id, withDefault } from '../../../shared/platform/request-fields.js';

const month = () => boundedString(7).check(z.regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be a month as YYYY-MM'));

export const handler = defineOperation({
  version: 'v2',
  name: 'premium',
  summary:
    'The premium report from one month to another (YYYY-MM), per month and group (group_by: any of state, line, policy_type, agency, rate_version): written premium (new business, endorsements, renewals, cancellations, reinstatements, rewrites), earned, unearned at start and end, fees and taxes, billed, collected, refunded, receivable at start and end, policies in force at month end, and the group\'s losses (paid_loss, paid_expense, case_reserves_end, recoveries, incurred_loss, loss_ratio: incurred loss ÷ earned, four decimals; null when grouped by rate_version, which losses are not kept by); prior_period_adjustments lines for moves dated into a closed month. An agent reads his agency\'s lines only. format csv adds it as CSV',
  permission: 'reports:read',
  input: () => z.object({
    from_month: month(),
    to_month: month(),
    group_by: withDefault(list(z.enum(GROUP_DIMENSIONS, { error: `must be among ${GROUP_DIMENSIONS.join(', ')}` }), GROUP_DIMENSIONS.length), []),
    format: withDefault(z.enum(['json', 'csv'], { error: 'must be json or csv' }), 'json'),
    agency_id: optional(id()),
  }),
  resources: { table: 'read' },
  handle: async (input, { principal }) =>
    premiumReport(principal, { fromMonth: input.from_month, toMonth: input.to_month, groupBy: [...new Set(input.group_by)], format: input.format, ...(input.agency_id ? { agencyId: input.agency_id } : {}) }),
});
