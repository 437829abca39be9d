import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { id } from '../../../shared/platform/request-fields.js';
import { signaturePorts, requestDeliverableSignature, singleMessageAnswer } from '../../../shared/signatures/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'request_deliverable_signature',
  summary:
    'Asks the signature vendor for one signature per named insured on the Policy Application of a submitted, not yet issued policy; message is the request id, data the signing links (embedded) or [] (mail)',
  permission: 'signatures:write',
  input: () => z.object({ policy_id: id(), sign_mode: z.enum(['embedded', 'mail'], { error: 'must be embedded or mail' }) }),
  resources: { table: 'write', bucket: 'write', secrets: ['signature-vendor'] },
  handle: async ({ policy_id, sign_mode }, { principal }) =>
    singleMessageAnswer(async () => {
      const request = await requestDeliverableSignature(principal, { policyId: policy_id, signMode: sign_mode }, signaturePorts);
      return { message: request.id, data: request.is_embedded ? request.signatures.map((signature) => signature.iframe_url) : [] };
    }, []),
});
