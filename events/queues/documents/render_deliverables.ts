/**
 * Renders the deliverables policies' moves requested (the Declaration at issue, Notices of
 * Cancellation), which the table's stream brings here: the PDF goes to the bucket and the file
 * record, with the request's id, joins the policy's files and the print queue. Idempotent by
 * construction: a redelivered request finds its file and renders nothing again. A request that
 * fails to render stays pending in the table, comes back, and is dead-lettered after the
 * queue's receive count, never lost.
 */
import * as z from 'zod/mini';
import { defineConsumer } from '../../../shared/platform/consumer.js';
import { renderRequestedDeliverable } from '../../../shared/documents/index.js';

export const handler = defineConsumer({
  queue: 'documents',
  message: () => z.object({ requestId: z.guid() }),
  resources: { table: 'write', bucket: 'write' },
  handle: ({ requestId }) => renderRequestedDeliverable(requestId),
  logged: ({ requestId }, outcome) => ({ requestId, outcome }),
});
