/**
 * Documents' part of an endorsement (an EndorsementContribution): the Endorsement Declaration,
 * rendered like the Declaration from the endorsed revision and opened by what changed. The move
 * writes its request (data, no PDF) in its transaction, dated by the move's decision date; the
 * documents consumer renders it once the endorsement has committed, from the revision as
 * committed (re-rated on top of any later one it slipped under). A preview only names it.
 * Like deliverable-requests.ts, this module must not import the renderer.
 */
import { randomUUID } from 'node:crypto';
import type { EndorsedRevision, EndorsementContribution, EndorsementEffect } from '../lifecycle/index.js';
import type { DeliverableRequest, EndorsementDetails } from './model.js';
import { deliverableRequestPut } from './request-store.js';

export const ENDORSEMENT_DECLARATION = 'Endorsement Declaration' as const;

export function endorsementDetails(endorsed: Pick<EndorsedRevision, 'revisionDate' | 'changes' | 'items' | 'premiumChangeCents'>): EndorsementDetails {
  return {
    effectiveDate: endorsed.revisionDate,
    changes: endorsed.changes,
    items: endorsed.items
      .filter((item) => item.oldAnnualPremiumCents !== item.newAnnualPremiumCents || item.additionalPremiumCents !== 0)
      .map((item) => ({ name: item.name, oldAnnual: item.oldAnnualPremiumCents, newAnnual: item.newAnnualPremiumCents, additional: item.additionalPremiumCents })),
    premiumChange: endorsed.premiumChangeCents,
  };
}

export const endorsementDeclaration: EndorsementContribution = async (endorsed, options): Promise<EndorsementEffect> => {
  const preview = [{ deliverable_type: ENDORSEMENT_DECLARATION, go_date: endorsed.commitDate, changes: endorsed.changes.length }];
  if (options.preview) return { area: 'documents', writes: [], preview };
  const header = endorsed.revision.header;
  const request: DeliverableRequest = {
    requestId: randomUUID(),
    deliverableType: ENDORSEMENT_DECLARATION,
    policyId: endorsed.policyId,
    policyNumber: endorsed.policyNumber,
    revisionId: endorsed.revisionId,
    renderRevisionId: endorsed.revisionId,
    agencyId: header.agencyId ?? null,
    contactIds: [...header.contactIds],
    recipientContactId: endorsed.namedInsuredContactIds[0] ?? null,
    decisionDate: endorsed.commitDate,
    endorsement: endorsementDetails(endorsed),
    requestedAt: endorsed.committedAt,
    state: 'requested',
  };
  return { area: 'documents', writes: [deliverableRequestPut(request)], preview };
};
