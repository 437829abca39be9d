import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { eitherOf, flagOr, id, list, optional } from '../../../shared/platform/request-fields.js';
import { getPoliciesInForce } from '../../../shared/search/index.js';

/** The most policies one call may name: each is one read. */
const MAX_NAMED_POLICIES = 100;

export const handler = defineOperation({
  version: 'v2',
  name: 'get_policies_with_active_current_revision',
  summary:
    "Policies in force (status Active, current revision committed) within the caller's reach, oldest first, listed as get_policies lists them (data: the list): a contact's (contact_id), or of the ones named in policies (policy ids or numbers), or of both: the contact's among those named",
  permission: 'policies:read',
  // include_canceled and policies (vendor parameters): also list cancelled policies whose current revision is committed; the policies to look at.
  input: () => z
    .object({ contact_id: optional(id()), policies: optional(list(id('must be a policy id or policy number'), MAX_NAMED_POLICIES)), include_policy_photo: flagOr(false), include_canceled: flagOr(false) })
    .check(eitherOf('contact_id', 'policies')),
  resources: { table: 'read' },
  handle: async (input, { principal }) =>
    getPoliciesInForce(principal, { contactId: input.contact_id, policies: input.policies, order: 'asc', includePhoto: input.include_policy_photo, includeCanceled: input.include_canceled }),
});
