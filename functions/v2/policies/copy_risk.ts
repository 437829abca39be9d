import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { flagOr, uuid } from '../../../shared/platform/request-fields.js';
import { copyRisk } from '../../../shared/policies/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'copy_risk',
  summary: "Copies a property's address, rating, mortgagees and tenants onto another property",
  permission: 'policies:write',
  input: () => z.object({
    from_risk_id: uuid(),
    to_risk_id: uuid(),
    copy_address: flagOr(true),
    copy_rating: flagOr(true),
    copy_mortgagees: flagOr(false),
    copy_tenants: flagOr(false),
  }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => copyRisk(principal, input),
});
