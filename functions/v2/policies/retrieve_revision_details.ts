import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { flagOr, id } from '../../../shared/platform/request-fields.js';
import { retrieveRevisionDetails } from '../../../shared/policies/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'retrieve_revision_details',
  summary: 'A revision with its totals, underwriting answers and contacts',
  permission: 'policies:read',
  input: () => z.object({ revision_id: id(), include_contact_details: flagOr(false) }),
  resources: { table: 'read' },
  handle: async (input, { principal }) => retrieveRevisionDetails(principal, input.revision_id, input.include_contact_details),
});
