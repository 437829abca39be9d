import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { optional, optionalUuid, shortText, wholeNumber } from '../../../shared/platform/request-fields.js';
import { startRateImpact } from '../../../shared/products/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'rate_impact',
  summary:
    'Rates every in-force policy in scope as its next renewal would be, at its current rates and at a candidate (a line_file not yet published, or a stored version_id), writing nothing to any policy; the run is stored and fans out in batches: read it with retrieve_rate_impact (Administrators only)',
  permission: 'lines:publish',
  input: () => z.object({
    line_file: z.optional(z.union([z.record(z.string(), z.unknown()), z.string()])),
    version_id: optionalUuid(),
    filters: z.optional(
      z.object({
        state: optional(z.string().check(z.regex(/^[A-Za-z]{2}$/, 'a two-letter state code such as FL'))),
        territory: optional(shortText()),
        zip: optional(z.string().check(z.regex(/^\d{5}$/, 'a 5-digit ZIP'))),
        agency: optionalUuid(),
        renewing_within_days: optional(wholeNumber({ min: 0, max: 400 })),
      }),
    ),
  }),
  resources: { table: 'write', queues: ['rate-impact'] },
  handle: async (input, { principal }) => {
    const filters = input.filters ?? {};
    return startRateImpact(principal, {
      lineFile: input.line_file,
      versionId: input.version_id,
      filters: {
        ...(filters.state ? { state: filters.state.toUpperCase() } : {}),
        ...(filters.territory ? { territory: filters.territory } : {}),
        ...(filters.zip ? { zip: filters.zip } : {}),
        ...(filters.agency ? { agencyId: filters.agency } : {}),
        ...(filters.renewing_within_days !== undefined ? { renewingWithinDays: filters.renewing_within_days } : {}),
      },
    });
  },
});
