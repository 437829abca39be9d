import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/operation.js';
import { freeFormValue, list } from '../../../shared/platform/request-fields.js';
import { applyLockboxTransactions } from '../../../shared/billing/service.js';
import { onceForKey } from '../../../shared/platform/idempotency.js';

/**
 * A bank's daily file. Sent with an Idempotency-Key, the answer is kept as the key's record, one
 * DynamoDB item of at most 400 KB: 2,000 lines of at most ~150 bytes each stay well inside it.
 */
const MAX_TRANSACTIONS = 2000;

export const handler = defineOperation({
  version: 'v2',
  name: 'apply_lockbox_payment_transactions',
  summary: 'Posts a lockbox file: each transaction matched by digits-only policy number and answered in order (success, or error with the reason); a check already posted to a policy is never posted again (sent again, its line answers error "already posted"); an Idempotency-Key header makes a retry answer the first answer',
  permission: 'billing:write',
  // Each transaction is judged on its own line, so a malformed one is answered there rather than failing the file.
  input: z.object({ transactions: list(freeFormValue(), MAX_TRANSACTIONS) }),
  resources: { table: 'write' },
  // With an Idempotency-Key a retry (the answer lost, a crash) answers the first answer and posts nothing.
  // Without one the file is judged again: each check number is held per policy, so a check already
  // posted answers an error saying so, and no check ever posts twice.
  handle: async (input, { principal, idempotencyKey, deadline }) => {
    const apply = () => applyLockboxTransactions(input.transactions);
    if (!idempotencyKey) return apply();
    return onceForKey('apply_lockbox_payment_transactions', `${principal.contactId}:${idempotencyKey}`, input, apply, {
      deadline,
      inProgress: 'The lockbox file sent earlier with this Idempotency-Key is still being applied',
    });
  },
});
