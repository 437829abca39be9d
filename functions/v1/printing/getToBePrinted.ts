import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/operation.js';
import { Reply } from '../../../shared/platform/envelope.js';
import { date, flagOr, optional } from '../../../shared/platform/request-fields.js';
import { getToBePrinted } from '../../../shared/documents/print-service.js';

export const handler = defineOperation({
  version: 'v1',
  name: 'getToBePrinted',
  summary:
    "Files waiting to print from from_date (default: the carrier's live date) to to_date (default: today), with their mailing batch, and whether the nightly processing of to_date is not started, incomplete or done; answered at the top level and in data",
  permission: 'printing:read',
  wrapper: 'json_dict',
  input: z.object({
    from_date: optional(date()),
    to_date: optional(date()),
    ignore_state: flagOr(false),
    exclude_electronic_delivery: flagOr(false),
    only_electronic_delivery: flagOr(false),
    include_claims: flagOr(false),
    disable_edelivery_filtering: flagOr(false),
    include_address_fields: flagOr(false),
  }),
  resources: { table: 'read' },
  handle: async (input) => {
    const answer = await getToBePrinted(input);
    // One existing client reads the raw answer, another the envelope's data: both get it.
    return new Reply({ success: true, message: [], ...answer, data: answer });
  },
});
