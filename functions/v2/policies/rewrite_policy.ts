import * as z from 'zod/mini';
import { defineIdempotentOperation } from '../../../shared/define-operation.js';
import { openRewrite, REWRITE_TYPES } from '../../../shared/lifecycle/index.js';
import { date, id, optional, optionalId } from '../../../shared/platform/request-fields.js';

export const handler = defineIdempotentOperation({
  version: 'v2',
  name: 'rewrite_policy',
  summary: 'Opens a rewrite of an issued (or expired) policy: a copy of the revision in force, spanning the new term (full_term keeps the term; remainder_of_term runs from effective_date to the term\'s expiration; new_term starts a full term on effective_date, how an expired policy comes back with a gap), editable with every structure operation including the policy type, and rated with rate_revision; with new_policy_number (true, or a number) a rewrite to a new account, its named insured to_contact_id',
  permission: 'policies:rewrite',
  input: () => z.object({
    policy_id: id(),
    rewrite_type: z.enum(REWRITE_TYPES, { error: `must be one of ${REWRITE_TYPES.join(', ')}` }),
    effective_date: optional(date()),
    // A rewrite to a new account: true for the next number of the sequence, or the number itself, typed by hand.
    new_policy_number: optional(z.union([z.boolean(), id()], { error: 'must be true (the next number) or a policy number' })),
    to_contact_id: optionalId(),
  }),
  resources: { table: 'write' },
  // A retry with the same Idempotency-Key answers the rewrite revision opened first, and opens no second one.
  idempotent: {
    scope: 'rewrite_policy',
    inProgress: 'The rewrite sent earlier with this Idempotency-Key is still being opened',
    // Compared on the request inside an object, as its records always were: a record written before still matches its retry.
    comparedOn: (input) => ({ input }),
  },
  handle: async (input, { principal }) => {
    const request = {
      policyId: input.policy_id,
      rewriteType: input.rewrite_type,
      ...(input.effective_date ? { effectiveDate: input.effective_date } : {}),
      ...(input.new_policy_number === true || input.new_policy_number === 'true' ? { newPolicyNumber: true as const } : typeof input.new_policy_number === 'string' && input.new_policy_number !== 'false' ? { newPolicyNumber: input.new_policy_number } : {}),
      ...(input.to_contact_id ? { toContactId: input.to_contact_id } : {}),
    };
    return openRewrite(principal, request);
  },
});
