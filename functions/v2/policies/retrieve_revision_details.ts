import { z } from 'zod';
import { defineOperation } from '../../../shared/operation.js';
import { retrieveRevisionDetails } from '../../../shared/policies/policy-service.js';
import { flag, id } from '../../../shared/policies/schemas.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'retrieve_revision_details',
  summary: 'A revision with its totals, underwriting answers and contacts',
  permission: 'policies:read',
  input: z.object({ revision_id: id(), include_contact_details: flag(false) }),
  resources: { table: 'read' },
  handle: async (input, { principal }) => retrieveRevisionDetails(principal, input.revision_id, input.include_contact_details),
});
