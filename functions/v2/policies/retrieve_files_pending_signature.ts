import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { id } from '../../../shared/platform/request-fields.js';
import { retrieveFilesPendingSignature } from '../../../shared/signatures/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'retrieve_files_pending_signature',
  summary: 'The files of the policy sent for signature and not signed yet, as a JSON-encoded dict keyed by file id',
  permission: 'policies:read',
  input: () => z.object({ policy_id: id() }),
  resources: { table: 'read' },
  handle: async ({ policy_id }, { principal }) => JSON.stringify(await retrieveFilesPendingSignature(principal, policy_id)),
});
