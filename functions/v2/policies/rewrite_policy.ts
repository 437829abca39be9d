import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { openRewrite, REWRITE_TYPES } from '../../../shared/lifecycle/rewrite.js';
import { onceForKey } from '../../../shared/platform/idempotency.js';
import { date, id, optional, optionalId } from '../../../shared/platform/request-fields.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'rewrite_policy',
  summary: 'Opens a rewrite of an issued (or expired) policy: a copy of the revision in force, spanning the new term (full_term keeps the term; remainder_of_term runs from effective_date to the term\'s expiration; new_term starts a full term on effective_date), editable with every structure operation including the policy type, and rated with rate_revision',
  permission: 'policies:rewrite',
  input: z.object({
    policy_id: id(),
    rewrite_type: z.enum(REWRITE_TYPES, { error: `must be one of ${REWRITE_TYPES.join(', ')}` }),
    effective_date: optional(date()),
    new_policy_number: optionalId(),
    to_contact_id: optionalId(),
  }),
  resources: { table: 'write' },
  handle: async (input, { principal, idempotencyKey, deadline }) => {
    const request = {
      policyId: input.policy_id,
      rewriteType: input.rewrite_type,
      ...(input.effective_date ? { effectiveDate: input.effective_date } : {}),
      ...(input.new_policy_number ? { newPolicyNumber: input.new_policy_number } : {}),
      ...(input.to_contact_id ? { toContactId: input.to_contact_id } : {}),
    };
    const open = () => openRewrite(principal, request);
    // A retry with the same Idempotency-Key answers the rewrite revision opened first, and opens no second one.
    return idempotencyKey ? onceForKey('rewrite_policy', `${principal.contactId}:${idempotencyKey}`, { input }, open, {
          deadline,
          inProgress: 'The rewrite sent earlier with this Idempotency-Key is still being opened',
        }) : open();
  },
});
