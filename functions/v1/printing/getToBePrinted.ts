import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { Reply } from '../../../shared/platform/envelope.js';
import { boundedString, date, flagOr, optional } from '../../../shared/platform/request-fields.js';
import { getToBePrinted } from '../../../shared/documents/index.js';

export const handler = defineOperation({
  version: 'v1',
  name: 'getToBePrinted',
  summary:
    "Files waiting to print from from_date (default: the carrier's live date; any window length) to to_date (default: today), in print order, with their mailing batch, and whether the nightly processing of to_date is not started, incomplete or done; answered at the top level and in data. " +
    'One answer carries at most about 5 MB of files (about 6,000 files; 4,000 with include_address_fields): when more are waiting it answers as many as fit, processing "incomplete" and continue_after. ' +
    'To fetch the rest, mark the answered files printed (markAsPrinted) and call again with the same arguments: the queue then starts at the remainder; or call again with continue_after (the only way on with ignore_state). The last answer carries no continue_after. ' +
    "only_electronic_delivery / exclude_electronic_delivery filter on the recipient's storeRoles notices.acceptNoticesByEmail as it was when the file was made (paper when absent); disable_edelivery_filtering ignores both",
  permission: 'printing:read',
  wrapper: 'json_dict',
  input: () => z.object({
    from_date: optional(date()),
    to_date: optional(date()),
    ignore_state: flagOr(false),
    exclude_electronic_delivery: flagOr(false),
    only_electronic_delivery: flagOr(false),
    include_claims: flagOr(false),
    disable_edelivery_filtering: flagOr(false),
    include_address_fields: flagOr(false),
    // Beyond the interface: where a cut answer left off (its continue_after), `<print_date>#<file_id>`.
    continue_after: optional(
      boundedString(60).check(z.regex(/^\d{4}-\d{2}-\d{2}#[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'must be the continue_after of an earlier answer (<print_date>#<file_id>)')),
    ),
  }),
  resources: { table: 'read' },
  handle: async (input) => {
    const answer = await getToBePrinted(input);
    // One existing client reads the raw answer, another the envelope's data: both get it.
    return new Reply({ success: true, message: [], ...answer, data: answer });
  },
});
