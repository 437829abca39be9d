import * as z from 'zod/mini';
import { setCommissionSchedule } from '../../../shared/commissions/index.js';
import { defineOperation } from '../../../shared/define-operation.js';
import { boundedString, decimal, id, optional, optionalId } from '../../../shared/platform/request-fields.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'set_commission_schedule',
  summary:
    "Sets an agency's commission rates (Administrators): for a line (line_id; every line when absent) in a state (two letters; every state when absent), the new business and renewal rates in percent. A policy issued or renewed after it earns at the most specific rate; without one, 15% new business and 12% renewal",
  permission: 'billing:write',
  input: () => z.object({
    agency_id: id(),
    line_id: optionalId(),
    state: optional(boundedString(2)),
    new_business_rate: decimal({ min: 0, max: 100 }),
    renewal_rate: decimal({ min: 0, max: 100 }),
  }),
  resources: { table: 'write' },
  handle: async (input, { principal }) =>
    setCommissionSchedule(principal, {
      agencyId: input.agency_id,
      ...(input.line_id ? { lineId: input.line_id } : {}),
      ...(input.state ? { state: input.state } : {}),
      newBusinessRate: input.new_business_rate,
      renewalRate: input.renewal_rate,
    }),
});
