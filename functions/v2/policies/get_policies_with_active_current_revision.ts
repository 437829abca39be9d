import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { flagOr, id } from '../../../shared/platform/request-fields.js';
import { getPoliciesInForce } from '../../../shared/search/service.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'get_policies_with_active_current_revision',
  summary: "A contact's policies in force (status Active, current revision committed) within the caller's reach, oldest first, listed as get_policies lists them (data: the list)",
  permission: 'policies:read',
  // include_canceled (vendor parameter): also list cancelled policies whose current revision is committed.
  input: z.object({ contact_id: id(), include_policy_photo: flagOr(false), include_canceled: flagOr(false) }),
  resources: { table: 'read' },
  handle: async (input, { principal }) => getPoliciesInForce(principal, { contactId: input.contact_id, order: 'asc', includePhoto: input.include_policy_photo, includeCanceled: input.include_canceled }),
});
