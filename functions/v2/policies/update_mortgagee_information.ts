import { z } from 'zod';
import { defineOperation } from '../../../shared/operation.js';
import { updateMortgageeInformation } from '../../../shared/policies/risk-service.js';
import { clearableText, id } from '../../../shared/policies/schemas.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'update_mortgagee_information',
  summary: "Changes a property mortgagee's loan description, number, type and declaration statement",
  permission: 'policies:write',
  input: z.object({
    x_contact_reference: id(),
    mortgagee_info: z.object({
      description: clearableText().optional(),
      loan_num: clearableText().optional(),
      type: clearableText().optional(),
      dec_mort_statement: clearableText().optional(),
    }),
  }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => updateMortgageeInformation(principal, input),
});
