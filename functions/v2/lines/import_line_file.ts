import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { optionalUuid } from '../../../shared/platform/request-fields.js';
import { importLineFile } from '../../../shared/products/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'import_line_file',
  summary: 'Publishes a product version (a product package as one JSON document of its files): validated and its worksheets run, then stored immutably and put in force by its rate versions\' dates; refused naming every problem, changing nothing; where the carrier requires it, names the stored rate impact run of this very file (impact_run_id) (Administrators only)',
  permission: 'lines:publish',
  input: () => z.object({ line_file: z.union([z.record(z.string(), z.unknown()), z.string()]), impact_run_id: optionalUuid() }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => importLineFile(principal, input.line_file, undefined, { impactRunId: input.impact_run_id }),
});
