import { createHash } from 'node:crypto';
import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/operation.js';
import { freeFormValue, list } from '../../../shared/platform/request-fields.js';
import { applyLockboxTransactions } from '../../../shared/billing/service.js';
import { onceForKey } from '../../../shared/platform/idempotency.js';

/**
 * A bank's daily file. The answer is kept as the file's idempotency record, one DynamoDB item
 * of at most 400 KB: 2,000 lines of at most ~150 bytes each stay well inside it.
 */
const MAX_TRANSACTIONS = 2000;

export const handler = defineOperation({
  version: 'v2',
  name: 'apply_lockbox_payment_transactions',
  summary: 'Posts a lockbox file: each transaction matched by digits-only policy number and answered in order (success, or error with the reason); a check already posted to a policy is never posted again',
  permission: 'billing:write',
  // Each transaction is judged on its own line, so a malformed one is answered there rather than failing the file.
  input: z.object({ transactions: list(freeFormValue(), MAX_TRANSACTIONS) }),
  resources: { table: 'write' },
  // The same file sent again (a retry, a resend) answers the first answer and posts nothing, with or
  // without an Idempotency-Key; each check number is also held per policy, so no check ever posts twice.
  handle: async (input, { principal, idempotencyKey }) => {
    const apply = () => applyLockboxTransactions(input.transactions);
    const key = idempotencyKey ? `${principal.contactId}:${idempotencyKey}` : `file:${createHash('sha256').update(JSON.stringify(input.transactions)).digest('hex')}`;
    return onceForKey('apply_lockbox_payment_transactions', key, input, apply);
  },
});
