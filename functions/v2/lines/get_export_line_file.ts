import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { uuid } from '../../../shared/platform/request-fields.js';
import { getExportLineFile } from '../../../shared/products/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'get_export_line_file',
  summary: 'The line file of a product version as published; its data is the package as a JSON-encoded string',
  permission: 'policies:read',
  input: () => z.object({ effective_date_id: uuid() }),
  resources: { table: 'read' },
  handle: async (input) => getExportLineFile(input.effective_date_id),
});
