import * as z from 'zod/mini';
import { Reply } from '../../../shared/platform/envelope.js';
import { defineOperation } from '../../../shared/define-operation.js';
import { id } from '../../../shared/platform/request-fields.js';
import { updateUnderwritingQuestions, underwritingAnswers } from '../../../shared/policies/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'update_underwriting_questions',
  summary: "Records answers to the revision's underwriting questions",
  permission: 'policies:write',
  input: () => z.object({ revision_id: id(), underwriting_questions: underwritingAnswers() }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => {
    await updateUnderwritingQuestions(principal, input);
    // The spec documents this answer as an empty data array and a single-string message.
    return new Reply({ success: true, message: 'The underwriting questions were saved', data: [] });
  },
});
