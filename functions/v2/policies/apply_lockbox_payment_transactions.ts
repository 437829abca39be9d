import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/operation.js';
import { freeFormValue, list } from '../../../shared/platform/request-fields.js';
import { applyLockboxTransactions } from '../../../shared/billing/service.js';
import { onceForKey } from '../../../shared/platform/idempotency.js';

/** A bank's daily file: a few thousand checks at most. */
const MAX_TRANSACTIONS = 5000;

export const handler = defineOperation({
  version: 'v2',
  name: 'apply_lockbox_payment_transactions',
  summary: 'Posts a lockbox file: each transaction matched by digits-only policy number and answered in order (success, or error with the reason); a check already posted to a policy is never posted again',
  permission: 'billing:write',
  // Each transaction is judged on its own line, so a malformed one is answered there rather than failing the file.
  input: z.object({ transactions: list(freeFormValue(), MAX_TRANSACTIONS) }),
  resources: { table: 'write' },
  handle: async (input, { principal, idempotencyKey }) => {
    const apply = () => applyLockboxTransactions(input.transactions);
    return idempotencyKey ? onceForKey('apply_lockbox_payment_transactions', `${principal.contactId}:${idempotencyKey}`, input, apply) : apply();
  },
});
