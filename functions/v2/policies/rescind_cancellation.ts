import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { rescindMove } from '../../../shared/moves/rescind.js';
import { id, name } from '../../../shared/platform/request-fields.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'rescind_cancellation',
  summary:
    "Lifts a policy's pending cancellation (non-payment or any other) before its date, with a note carrying the reason; a non-payment pending lifted while its invoice is unpaid excuses that invoice from the nightly job",
  permission: 'policies:cancel',
  input: () => z.object({ policy_id: id(), reason: name() }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => {
    const rescinded = await rescindMove(principal, { policyId: input.policy_id, byHand: true, summary: `Pending cancellation rescinded: ${input.reason}` });
    return { policy_number: rescinded.policyNumber, message: `Policy ${rescinded.policyNumber}: the cancellation pending for ${rescinded.cancelDate} is rescinded (${input.reason})` };
  },
});
