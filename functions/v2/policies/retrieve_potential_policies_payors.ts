import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { id, list } from '../../../shared/platform/request-fields.js';
import { potentialPayors } from '../../../shared/billing/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'retrieve_potential_policies_payors',
  summary: 'Named insureds, finance companies, additional interests and mortgagees of the given policies (numbers out of reach are skipped)',
  permission: 'billing:read',
  input: () => z.object({ policy_numbers: list(id(), 100) }),
  resources: { table: 'read' },
  handle: async (input, { principal }) => potentialPayors(principal, input.policy_numbers),
});
