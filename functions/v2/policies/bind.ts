import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { eitherOf, optionalId } from '../../../shared/platform/request-fields.js';
import { bindMove } from '../../../shared/moves/bind.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'bind',
  summary: 'Submits an unsubmitted quote (status Submitted); anything else answers success false and changes nothing',
  permission: 'policies:bind',
  input: () => z.object({ bind_info: z.object({ policy_id: optionalId(), policy_number: optionalId() }).check(eitherOf('policy_id', 'policy_number')) }),
  resources: { table: 'write' },
  handle: async ({ bind_info }, { principal }) => bindMove(principal, { policyId: bind_info.policy_id, policyNumber: bind_info.policy_number }),
});
