import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { Reply } from '../../../shared/platform/envelope.js';
import { list, uuid } from '../../../shared/platform/request-fields.js';
import { markAsPrinted, MARK_AS_PRINTED_MAX_FILES } from '../../../shared/documents/index.js';
import { clock } from '../../../shared/platform/clock.js';

export const handler = defineOperation({
  version: 'v1',
  name: 'markAsPrinted',
  summary:
    'Marks files as printed, so that getToBePrinted no longer lists them as tbd; answers num_marked (files that were waiting to print) at the top level and in data. ' +
    'Up to 20,000 files a call (a night of getToBePrinted answers); each marked file sends its deliverable.printed event',
  permission: 'printing:write',
  wrapper: 'json_dict',
  input: () => z.object({ file_ids: list(uuid('must be a file id (UUID)'), MARK_AS_PRINTED_MAX_FILES) }),
  resources: { table: 'write' },
  handle: async ({ file_ids }, { deadline }) => {
    const marked = await markAsPrinted(file_ids, clock.now(), { deadline });
    return new Reply({ success: true, message: [], num_marked: marked, data: { num_marked: marked } });
  },
});
