import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { searchClaims } from '../../../shared/claims/index.js';
import { boundedString, date, id, optional, optionalId, pageSize, withDefault } from '../../../shared/platform/request-fields.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'search',
  summary:
    'Claims by number, policy number, insured name, status (open includes reopened), adjuster, peril, catastrophe, state and a loss date range, newest loss first, page_size at a time (next_cursor continues). An agent finds his agencies\' claims only',
  permission: 'claims:read',
  input: () => z.object({
    claim_number: optional(id()),
    policy_number: optional(id()),
    insured_name: optional(boundedString(120)),
    status: optional(z.enum(['open', 'closed'])),
    adjuster_contact_id: optionalId(),
    peril: optional(boundedString(40)),
    cat_id: optionalId(),
    state: optional(boundedString(2)),
    loss_date_from: optional(date()),
    loss_date_to: optional(date()),
    page_size: withDefault(pageSize(1000), 50),
    cursor: optional(boundedString(200).check(z.regex(/^\d{4}-\d{2}-\d{2}#[0-9a-f-]{36}$/, 'must be a next_cursor this operation answered'))),
  }),
  resources: { table: 'read' },
  handle: async (input, { principal }) =>
    searchClaims(principal, {
      ...(input.claim_number ? { claimNumber: input.claim_number } : {}),
      ...(input.policy_number ? { policyNumber: input.policy_number } : {}),
      ...(input.insured_name ? { insuredName: input.insured_name } : {}),
      ...(input.status ? { status: input.status } : {}),
      ...(input.adjuster_contact_id ? { adjusterContactId: input.adjuster_contact_id } : {}),
      ...(input.peril ? { peril: input.peril } : {}),
      ...(input.cat_id ? { catastropheId: input.cat_id } : {}),
      ...(input.state ? { state: input.state } : {}),
      ...(input.loss_date_from ? { lossDateFrom: input.loss_date_from } : {}),
      ...(input.loss_date_to ? { lossDateTo: input.loss_date_to } : {}),
      pageSize: input.page_size,
      ...(input.cursor ? { cursor: input.cursor } : {}),
    }),
});
