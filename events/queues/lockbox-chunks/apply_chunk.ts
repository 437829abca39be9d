/**
 * Applies the chunks of lockbox files too large for one call (queued by
 * apply_lockbox_payment_transactions). A chunk delivered again, or interrupted and delivered
 * again, posts nothing twice and answers each line as it answered it the first time.
 */
import { defineConsumer } from '../../../shared/platform/consumer.js';
import { lockboxChunkMessage } from '../../../shared/billing/index.js';
import { applyLockboxChunkMove } from '../../../shared/moves/lockbox.js';
import { moneyPathTracing } from '../../../shared/platform/tracing.js';

export const handler = defineConsumer({
  queue: 'lockbox-chunks',
  message: lockboxChunkMessage,
  resources: { table: 'write', bucket: 'read' },
  tracing: moneyPathTracing,
  handle: (chunk) => applyLockboxChunkMove(chunk),
  logged: (chunk, outcome) => ({ fileId: chunk.fileId, chunk: chunk.chunk, lines: chunk.lines.length, ...outcome }),
});
