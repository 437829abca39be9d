import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { flagOr, id } from '../../../shared/platform/request-fields.js';
import { getPoliciesByContact } from '../../../shared/search/index.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'get_policies_by_contact_id_db_query',
  summary: "Every policy of a contact within the caller's reach, oldest first, listed as get_policies lists them (data: the list, unpaged)",
  permission: 'policies:read',
  input: () => z.object({ contact_id: id(), include_policy_photo: flagOr(false) }),
  resources: { table: 'read' },
  handle: async (input, { principal }) => getPoliciesByContact(principal, { contactId: input.contact_id, order: 'asc', includePhoto: input.include_policy_photo }),
});
