/** One PDF renderer per deliverable type. */
import type { DeliverableType, PolicyDocument } from '../model.js';
import { renderDeclaration } from './declaration.js';
import { renderEndorsementDeclaration } from './endorsement-declaration.js';
import { renderInstallmentBillingStatement } from './installment-billing-statement.js';
import { renderNoticeOfCancellation } from './notice-of-cancellation.js';
import { renderPolicyApplication } from './policy-application.js';
import { renderQuoteSummary } from './quote-summary.js';
import { renderRenewalNotice } from './renewal-notice.js';
import { renderNoticeOfReinstatement } from './notice-of-reinstatement.js';

const RENDERERS: Record<DeliverableType, (document: PolicyDocument) => Promise<Uint8Array>> = {
  Declaration: renderDeclaration,
  'Policy Application': renderPolicyApplication,
  'Quote Summary': renderQuoteSummary,
  'Installment Billing Statement': renderInstallmentBillingStatement,
  'Notice of Cancellation': renderNoticeOfCancellation,
  'Endorsement Declaration': renderEndorsementDeclaration,
  // A renewal's declaration and first statement are the documents of a new term, titled as such.
  'Renewal Declaration': renderDeclaration,
  'Renewal Billing Statement': renderInstallmentBillingStatement,
  'Conditional Renewal Notice': renderRenewalNotice,
  'Notice of Non-Renewal': renderRenewalNotice,
  'Notice of Reinstatement': renderNoticeOfReinstatement,
};

/** The document as PDF bytes; the same document always gives the same bytes. */
export function renderDeliverablePdf(document: PolicyDocument): Promise<Uint8Array> {
  return RENDERERS[document.type](document);
}
