import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { id } from '../../../shared/platform/request-fields.js';
import { resetRevisionPremium } from '../../../shared/policies/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'reset_revision_premium',
  summary: 'Clears the calculated premiums and step traces of an open revision (manual and external premiums stay)',
  permission: 'policies:write',
  input: () => z.object({ revision_id: id() }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => resetRevisionPremium(principal, input.revision_id),
});
