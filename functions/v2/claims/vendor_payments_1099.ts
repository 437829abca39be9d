import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { vendorPayments1099 } from '../../../shared/claims/index.js';
import { wholeNumber, withDefault } from '../../../shared/platform/request-fields.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'vendor_payments_1099',
  summary:
    "The year's claim payments (issued, not void) to each vendor contact marked 1099 reportable (storeRoles is1099Reportable) with a taxpayer id (feinTaxId, else ssn), for those paid at least the federal threshold of that year (2,000.00 from 2026 on; 600.00 before): name, tax id (in full to Administrators and Underwriters, masked to its last four otherwise), mailing address, payments and total, each payment listed; vendors over the threshold with no tax id on file under missing_tax_id. format csv adds it as CSV. Read from the year's listing of issued payments",
  permission: 'claims:manage',
  input: () => z.object({
    year: wholeNumber({ min: 2000, max: 2100 }),
    format: withDefault(z.enum(['json', 'csv'], { error: 'must be json or csv' }), 'json'),
  }),
  resources: { table: 'read' },
  handle: async (input, { principal }) => vendorPayments1099(principal, { year: String(input.year), format: input.format }),
});
