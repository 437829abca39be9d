import { z } from 'zod';
import { defineOperation } from '../../../shared/operation.js';
import { copyRisk } from '../../../shared/policies/risk-service.js';
import { flag, id } from '../../../shared/policies/schemas.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'copy_risk',
  summary: "Copies a property's address, rating, mortgagees and tenants onto another property",
  permission: 'policies:write',
  input: z.object({
    from_risk_id: id(),
    to_risk_id: id(),
    copy_address: flag(true),
    copy_rating: flag(true),
    copy_mortgagees: flag(false),
    copy_tenants: flag(false),
  }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => copyRisk(principal, input),
});
