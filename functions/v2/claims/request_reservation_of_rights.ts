import * as z from 'zod/mini';
import { defineIdempotentOperation } from '../../../shared/define-operation.js';
import { reservationOfRightsMove } from '../../../shared/moves/claims.js';
import { boundedString, id } from '../../../shared/platform/request-fields.js';

export const handler = defineIdempotentOperation({
  version: 'v2',
  name: 'request_reservation_of_rights',
  summary:
    'Reserves the carrier\'s rights on an open claim while it is investigated: the reason is kept with who and when (get_claim_changes) and a Reservation of Rights letter giving it goes to the insured (get_claim lists it in documents). A closed or denied claim is refused. Idempotency-Key answers a retried request with the first answer',
  permission: 'claims:write',
  input: () => z.object({ claim_id: id(), reason: boundedString(2000, { nonEmpty: true }) }),
  resources: { table: 'write' },
  idempotent: { scope: 'request_reservation_of_rights', inProgress: 'The reservation of rights asked earlier with this Idempotency-Key is still being recorded' },
  handle: async (input, { principal }) => reservationOfRightsMove(principal, { claimId: input.claim_id, reason: input.reason }),
});
