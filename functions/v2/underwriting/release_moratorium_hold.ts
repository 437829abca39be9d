import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { MORATORIUM_PERMISSION, releaseMoratoriumHold } from '../../../shared/moratoriums/index.js';
import { boundedString, id, LIMITS } from '../../../shared/platform/request-fields.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'release_moratorium_hold',
  summary: 'Lets one policy through one moratorium (underwriters and Administrators), with the reason: recorded with who released it and when',
  permission: MORATORIUM_PERMISSION,
  input: () => z.object({ moratorium_id: id(), policy_id: id(), reason: boundedString(LIMITS.nameLength) }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => releaseMoratoriumHold(principal, { moratoriumId: input.moratorium_id, policyId: input.policy_id, reason: input.reason }),
});
