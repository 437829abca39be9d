import { z } from 'zod';
import { defineOperation } from '../../../shared/operation.js';
import { addressInfoFromZip } from '../../../shared/geography/zip-answers.js';

export const handler = defineOperation({
  version: 'v1',
  name: 'retrieveAddressInfoFromZip',
  summary: 'Cities, counties and state of a US ZIP code (valid: false when the ZIP is unknown or malformed)',
  permission: 'geography:read',
  input: z.object({
    zip: z.union([z.string(), z.number()], {
      error: (issue) => (issue.input === undefined ? 'is required' : 'must be a ZIP code such as 90210 or 90210-1234'),
    }),
    // Accepted for compatibility: a ZIP table cannot narrow a ZIP by street.
    addressLine1: z.string().nullish(),
  }),
  resources: { table: 'read' },
  handle: async ({ zip }) => addressInfoFromZip(zip),
});
