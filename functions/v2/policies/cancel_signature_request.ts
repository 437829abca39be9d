import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { id } from '../../../shared/platform/request-fields.js';
import { cancelSignatureRequest, signatureVendor, singleMessageAnswer } from '../../../shared/signatures/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'cancel_signature_request',
  summary: 'Cancels a signature request still awaiting signatures (its signing links stop working); a signed one cannot be cancelled',
  permission: 'signatures:write',
  input: () => z.object({ signature_request_id: id() }),
  resources: { table: 'write' },
  handle: async ({ signature_request_id }, { principal }) =>
    singleMessageAnswer(async () => {
      await cancelSignatureRequest(principal, signature_request_id, signatureVendor);
      return { message: `Signature request ${signature_request_id} is cancelled`, data: null };
    }, null),
});
