import * as z from 'zod/mini';
import { defineOperation } from '../../../shared/define-operation.js';
import { REPORTER_RELATIONS } from '../../../shared/claims/index.js';
import { updateClaimMove } from '../../../shared/moves/claims.js';
import { boundedString, clearable, date, freeText, id, name, optional } from '../../../shared/platform/request-fields.js';

export const handler = defineOperation({
  version: 'v2',
  name: 'update_claim',
  summary:
    'Changes a claim: description, loss date (the coverage at loss is read again) and time, peril, catastrophe, adjuster, who reported it, a denial with its reason, and the status: open to closed (every exposure closed first; a reason) and closed to reopened (a reason). Every change is kept with who and when. A denial asks for the Denial letter with its reason, a close for the Closing letter (get_claim lists them in documents)',
  permission: 'claims:write',
  input: () => z.object({
    claim_id: id(),
    claim: z.object({
      description: optional(freeText()),
      loss_date: optional(date()),
      loss_time: optional(clearable(boundedString(8).check(z.regex(/^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/, 'must be a time as HH:MM')))),
      peril: optional(boundedString(40, { nonEmpty: true })),
      cat_id: optional(clearable(id())),
      adjuster_contact_id: optional(clearable(id())),
      reported_by: optional(z.object({ name: name(), relation: z.enum(REPORTER_RELATIONS), phone: optional(boundedString(40)), email: optional(boundedString(254)) })),
      status: optional(z.enum(['open', 'closed', 'reopened'])),
      reason: optional(boundedString(500)),
      denial_reason: optional(boundedString(2000, { nonEmpty: true })),
    }),
  }),
  resources: { table: 'write' },
  handle: async (input, { principal }) => {
    const claim = input.claim;
    return updateClaimMove(principal, input.claim_id, {
      ...(claim.description !== undefined ? { description: claim.description } : {}),
      ...(claim.loss_date !== undefined ? { lossDate: claim.loss_date } : {}),
      ...(claim.loss_time !== undefined ? { lossTime: claim.loss_time } : {}),
      ...(claim.peril !== undefined ? { peril: claim.peril } : {}),
      ...(claim.cat_id !== undefined ? { catastropheId: claim.cat_id } : {}),
      ...(claim.adjuster_contact_id !== undefined ? { adjusterContactId: claim.adjuster_contact_id } : {}),
      ...(claim.reported_by !== undefined ? { reportedBy: { name: claim.reported_by.name, relation: claim.reported_by.relation, phone: claim.reported_by.phone ?? null, email: claim.reported_by.email ?? null } } : {}),
      ...(claim.status !== undefined ? { status: claim.status } : {}),
      ...(claim.reason !== undefined ? { reason: claim.reason } : {}),
      ...(claim.denial_reason !== undefined ? { denialReason: claim.denial_reason } : {}),
    });
  },
});
