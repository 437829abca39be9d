import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/operation.js';
import { moves } from '../../../shared/moves.js';
import { Reply } from '../../../shared/platform/envelope.js';
import { date, eitherOf, id, optional, optionalId } from '../../../shared/platform/request-fields.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'cancel_policy',
  summary: 'Cancels a policy term: with cancel_pending_date it goes to cancellation pending; with only cancel_date it is cancelled at once (revision, cancel dates, return premium, notice, note) in one transaction',
  permission: 'policies:cancel',
  input: z
    .object({
      policy_id: id(),
      policy_term_id: optionalId(),
      cancel_reason_id: id(),
      cancel_date: optional(date()),
      cancel_pending_date: optional(date()),
    })
    .check(eitherOf('cancel_date', 'cancel_pending_date')),
  resources: { table: 'write' },
  // The interface documents {success, message} with message a single string, failures included.
  messageShape: 'single',
  handle: async (input, { principal }) => {
    const outcome = await moves.cancel(principal, {
      policyId: input.policy_id,
      termId: input.policy_term_id,
      reasonId: input.cancel_reason_id,
      cancelDate: input.cancel_date,
      cancelPendingDate: input.cancel_pending_date,
    });
    return new Reply({ success: true, message: outcome.message, data: null });
  },
});
