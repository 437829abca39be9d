import * as z from 'zod/mini';
import { defineIdempotentOperation } from '../../../shared/define-operation.js';
import { objectList } from '../../../shared/platform/request-fields.js';
import { applyLockboxFileMove } from '../../../shared/moves/lockbox.js';
import { LOCKBOX_SYNC_LINES, lockboxFileId, startLargeLockboxFile } from '../../../shared/billing/index.js';
import { moneyPathTracing } from '../../../shared/platform/tracing.js';

/** A bank file of any size; beyond LOCKBOX_SYNC_LINES it is applied in chunks from a queue. */
const MAX_TRANSACTIONS = 50_000;

export const handler = defineIdempotentOperation({
  version: 'v2',
  name: 'apply_lockbox_payment_transactions',
  summary:
    'Posts a lockbox file: each transaction matched by digits-only policy number and answered in order (success, or error with the reason); a check already posted to a policy is never posted again (sent again, its line answers error "already posted"); an Idempotency-Key header makes a retry answer the first answer. A file of more than 1,000 lines is accepted at once and applied in parallel chunks: the answer is its file_id, and retrieve_lockbox_file_result answers its lines, in order, exactly as one application would',
  permission: 'billing:write',
  // A file whose lines are not all objects is refused whole, before any work, at its first such line;
  // an object's fields (policy, check, payment) are judged on its own line, so a bad one is answered there.
  input: () => z.object({ transactions: objectList(MAX_TRANSACTIONS, 'policy, check and payment') }),
  resources: { table: 'write', bucket: 'write', queues: ['lockbox-chunks'] },
  tracing: moneyPathTracing,
  // With an Idempotency-Key a retry (the answer lost, a crash) answers the first answer and posts nothing.
  // Without one, the same lines sent again are the same file: each line answers its first answer, posted
  // or refused, and is never judged again. A different file naming a check already posted to the policy
  // is answered an error on that line: no check ever posts twice. A large file's run is named by the key
  // itself (the same key starts and answers the same run), so the step keeps only files applied within the call.
  idempotent: {
    scope: 'apply_lockbox_payment_transactions',
    inProgress: 'The lockbox file sent earlier with this Idempotency-Key is still being applied',
    when: (input) => input.transactions.length <= LOCKBOX_SYNC_LINES,
  },
  handle: async (input, { principal, idempotencyKey }) => {
    if (input.transactions.length > LOCKBOX_SYNC_LINES) {
      // The same key names the same run: a retry answers the run it started.
      const run = await startLargeLockboxFile(input.transactions, principal.contactId, idempotencyKey);
      return {
        file_id: run.fileId,
        status: run.chunksDone >= run.chunks ? 'done' : 'applying',
        lines: run.lines,
        chunks: run.chunks,
        message: `The file's ${run.lines} lines are applied in ${run.chunks} chunks; retrieve_lockbox_file_result {"file_id":"${run.fileId}"} answers each line, in order, once they are done`,
      };
    }
    return applyLockboxFileMove(lockboxFileId(principal.contactId, undefined, input.transactions), input.transactions);
  },
});
