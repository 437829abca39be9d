import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { date, id } from '../../../shared/platform/request-fields.js';
import { policySnapshot } from '../../../shared/lifecycle/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'retrieve_policy_snapshot',
  summary: 'The policy as it stood on a date: the committed revision in force then, with its items and premiums',
  permission: 'policies:read',
  input: () => z.object({ policy_number: id(), snapshot_date: date() }),
  resources: { table: 'read' },
  handle: async (input, { principal }) => policySnapshot(principal, { policyNumber: input.policy_number, snapshotDate: input.snapshot_date }),
});
