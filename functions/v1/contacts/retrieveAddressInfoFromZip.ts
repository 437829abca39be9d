import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { boundedString, requiredOr, shortText } from '../../../shared/platform/request-fields.js';
import { addressInfoFromZip } from '../../../shared/geography/index.js';

export const handler = defineOperation({
  version: 'v1',
  name: 'retrieveAddressInfoFromZip',
  summary: 'Cities, counties and state of a US ZIP code (valid: false when the ZIP is unknown or malformed)',
  permission: 'geography:read',
  input: () => z.object({
    zip: z.union([boundedString(32, { trim: false }), z.number()], { error: requiredOr('must be a ZIP code such as 90210 or 90210-1234') }),
    // Accepted for compatibility: a ZIP table cannot narrow a ZIP by street.
    addressLine1: z.nullish(shortText()),
  }),
  resources: { table: 'read' },
  handle: async ({ zip }) => addressInfoFromZip(zip),
});
