import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { optionalFlag, uuid } from '../../../shared/platform/request-fields.js';
import { retrieveRateImpact } from '../../../shared/products/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'retrieve_rate_impact',
  summary:
    'A stored rate impact run: who ran it and when, the versions and filters, its state (running or complete) and, once complete, its report: counts and premiums before and after, bands of change, by state and territory, the largest changes, fees and surcharges, capped and uncapped (Administrators only)',
  permission: 'lines:publish',
  input: () => z.object({ run_id: uuid(), csv: optionalFlag() }),
  resources: { table: 'read' },
  handle: async (input, { principal }) => retrieveRateImpact(principal, input.run_id, { csv: input.csv === true }),
});
