import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { storeRenewalStatusMove } from '../../../shared/moves/renewal-status.js';
import { freeText, id, optional, optionalUuid } from '../../../shared/platform/request-fields.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'store_renewal_status',
  summary:
    "Decides the renewal of a revision's term: Renew (the default), or Non-Renewal with a reason at least the carrier's notice days before the term ends, which queues a Notice of Non-Renewal; the policy then expires at the term's end",
  permission: 'policies:write',
  input: () => z.object({
    revision_id: id(),
    renewal_status: z.enum(['Renew', 'Non-Renewal'], { error: 'must be Renew or Non-Renewal' }),
    renewal_status_reason: optionalUuid('must be the UUID of a non-renewal reason'),
    renewal_status_description: optional(freeText()),
  }),
  resources: { table: 'write' },
  handle: async (input, { principal }) =>
    storeRenewalStatusMove(principal, {
      revisionId: input.revision_id,
      status: input.renewal_status,
      ...(input.renewal_status_reason ? { reasonId: input.renewal_status_reason } : {}),
      ...(input.renewal_status_description ? { description: input.renewal_status_description } : {}),
    }),
});
