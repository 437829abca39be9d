import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { freeFormValue, id, list, optional, shortText, freeText } from '../../../shared/platform/request-fields.js';
import { updateReviewWorkflow } from '../../../shared/review/index.js';
import { REVIEW_EVENTS } from '../../../shared/underwriting/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'update_review_workflow',
  summary:
    "Moves a revision's underwriter review (UW_REVIEW_REQUESTED, UW_REVIEW_APPROVED, UW_REVIEW_DECLINED, AGENT_ACK) and answers prev_state and curr_state; a move the state does not allow answers success false naming the current state",
  permission: 'policies:write',
  input: () => z.object({
    revision_id: id(),
    workflow_event: z.enum(REVIEW_EVENTS, { error: `must be one of ${REVIEW_EVENTS.join(', ')}` }),
    event_context: optional(
      z.object({
        stp: optional(z.object({ details: optional(list(freeFormValue(), 100)), status: optional(z.enum(['pending', 'approved', 'declined'])) })),
        uw_message: optional(freeText()),
        request_reason: optional(shortText()),
      }),
    ),
  }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => updateReviewWorkflow(principal, input),
});
