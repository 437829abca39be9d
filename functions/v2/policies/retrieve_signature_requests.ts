import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { id } from '../../../shared/platform/request-fields.js';
import { retrieveSignatureRequests, singleMessageAnswer } from '../../../shared/signatures/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'retrieve_signature_requests',
  summary: "The policy's signature requests, oldest first, each with its signatures (status_code awaiting_signature until signed)",
  permission: 'policies:read',
  input: () => z.object({ policy_id: id() }),
  resources: { table: 'read' },
  handle: async ({ policy_id }, { principal }) =>
    singleMessageAnswer(async () => {
      const signature_requests = await retrieveSignatureRequests(principal, policy_id);
      return { message: '', data: { signature_requests, success: true } };
    }, { signature_requests: [], success: false }),
});
