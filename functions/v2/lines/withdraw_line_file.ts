import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { uuid } from '../../../shared/platform/request-fields.js';
import { withdrawLineFile } from '../../../shared/products/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'withdraw_line_file',
  summary: 'Withdraws a published product version before its first effective date: its rates leave the catalog and the version before it is put back (Administrators only)',
  permission: 'lines:publish',
  input: () => z.object({ version_id: uuid() }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => withdrawLineFile(principal, input.version_id),
});
