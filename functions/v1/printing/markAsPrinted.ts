import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/operation.js';
import { Reply } from '../../../shared/platform/envelope.js';
import { list, uuid } from '../../../shared/platform/request-fields.js';
import { markAsPrinted } from '../../../shared/documents/print-service.js';

export const handler = defineOperation({
  version: 'v1',
  name: 'markAsPrinted',
  summary: 'Marks files as printed, so that getToBePrinted no longer lists them as tbd; answers num_marked (files that were waiting to print) at the top level and in data',
  permission: 'printing:write',
  wrapper: 'json_dict',
  input: z.object({ file_ids: list(uuid('must be a file id (UUID)'), 1000) }),
  resources: { table: 'write' },
  handle: async ({ file_ids }) => {
    const marked = await markAsPrinted(file_ids);
    return new Reply({ success: true, message: [], num_marked: marked, data: { num_marked: marked } });
  },
});
