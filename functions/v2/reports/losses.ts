import * as z from 'zod/mini';
import { LOSS_GROUP_DIMENSIONS, lossReport } from '../../../shared/books/index.js';
import { defineOperation } from '../../../shared/define-operation.js';
import { boundedString, list, optional, id, withDefault } from '../../../shared/platform/request-fields.js';

const month = () => boundedString(7).check(z.regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be a month as YYYY-MM'));

export const handler = defineOperation({
  version: 'v2',
  name: 'losses',
  summary:
    'The loss report from one month to another (YYYY-MM), per month and group (group_by: any of state, line, policy_type, agency, catastrophe, accident_year): paid loss and paid expense (LAE), the reserve changes, case reserves at month start and end (end = start + changes), recoveries (the carrier\'s share) and the deductible passed on to the insured, recovery reserves at month end, incurred loss and expense (paid + change in reserves − recoveries), the earned premium and the loss ratio and loss-and-LAE ratio (incurred ÷ earned, four decimals; null when nothing was earned). Earned premium is kept by state, line, policy type and agency only: a catastrophe\'s or accident year\'s line divides by the earned premium of the rest of its group, so its ratio is its points of the whole (earned_premium_basis says so). prior_period_adjustments lines for money dated into a closed month. An agent reads his agency\'s lines only. format csv adds it as CSV',
  permission: 'reports:read',
  input: () => z.object({
    from_month: month(),
    to_month: month(),
    group_by: withDefault(list(z.enum(LOSS_GROUP_DIMENSIONS, { error: `must be among ${LOSS_GROUP_DIMENSIONS.join(', ')}` }), LOSS_GROUP_DIMENSIONS.length), []),
    format: withDefault(z.enum(['json', 'csv'], { error: 'must be json or csv' }), 'json'),
    agency_id: optional(id()),
  }),
  resources: { table: 'read' },
  handle: async (input, { principal }) =>
    lossReport(principal, { fromMonth: input.from_month, toMonth: input.to_month, groupBy: [...new Set(input.group_by)], format: input.format, ...(input.agency_id ? { agencyId: input.agency_id } : {}) }),
});
