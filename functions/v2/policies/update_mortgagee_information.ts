import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { LIMITS, uuid } from '../../../shared/platform/request-fields.js';
import { updateMortgageeInformation, clearableText } from '../../../shared/policies/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'update_mortgagee_information',
  summary: "Changes a property mortgagee's loan description, number, type and declaration statement",
  permission: 'policies:write',
  input: () => z.object({
    x_contact_reference: uuid(),
    mortgagee_info: z.object({
      description: clearableText(LIMITS.textLength),
      loan_num: clearableText(),
      type: clearableText(),
      dec_mort_statement: clearableText(LIMITS.textLength),
    }),
  }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => updateMortgageeInformation(principal, input),
});
