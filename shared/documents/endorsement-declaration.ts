/**
 * Documents' part of an endorsement (an EndorsementContribution): the Endorsement Declaration,
 * rendered like the Declaration from the endorsed revision and opened by what changed. It is
 * put in the bucket before the move's transaction and its file record is a write of that
 * transaction, dated by the move's decision date; a preview only names it.
 */
import type { EndorsedRevision, EndorsementContribution, EndorsementEffect } from '../lifecycle/model.js';
import { recipientOf } from './assemble.js';
import { documentForRevision, prepareFile } from './deliverable-service.js';
import type { EndorsementDetails } from './model.js';
import { renderDeliverablePdf } from './render/index.js';
import { attachmentPut, putFileBytes } from './store.js';

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
  const snapshot = endorsed.revision;
  const document = await documentForRevision(snapshot, ENDORSEMENT_DECLARATION, { issueDate: endorsed.commitDate, goDate: endorsed.commitDate });
  document.endorsement = endorsementDetails(endorsed);
  const pdf = await renderDeliverablePdf(document);
  const owner = { policyId: endorsed.policyId, policyNumber: endorsed.policyNumber, revisionId: endorsed.revisionId, agencyId: snapshot.header.agencyId, contactIds: [...snapshot.header.contactIds] };
  const prepared = prepareFile(owner, ENDORSEMENT_DECLARATION, pdf, {
    goDate: endorsed.commitDate,
    procDate: endorsed.commitDate,
    recipient: recipientOf(document),
    recipientContactId: endorsed.namedInsuredContactIds[0] ?? null,
  });
  await putFileBytes(prepared.record.objectKey, pdf, prepared.record.contentType);
  return { area: 'documents', writes: [attachmentPut(prepared.record)], preview };
};
