/** The Policy Application: what the applicant asks for, with the statement they sign. */
import type { PolicyDocument } from '../model.js';
import { drawSignatureLines } from './blocks.js';
import * as sections from './sections.js';

export async function renderPolicyApplication(document: PolicyDocument): Promise<Uint8Array> {
  const flow = await sections.startDocument(document);
  sections.drawParties(flow, document, 'Applicant');
  sections.drawPropertySchedule(flow, document);
  sections.drawPropertyCoverages(flow, document, 'Requested Property Coverages');
  sections.drawPolicyCoverages(flow, document.policyCoverages, 'Requested Liability Coverages');
  sections.drawPremiumSummary(flow, document, 'Estimated Premium');
  if (document.billing) sections.drawInstallments(flow, document.billing, 'Requested Payment Plan');
  sections.drawForms(flow, document.forms);
  flow.section("Applicant's Statement", 110);
  flow.paragraph(
    'I have read this application. The statements in it are true and complete to the best of my knowledge, ' +
      'and I understand that the company relies on them in deciding whether to issue the policy and at what premium. ' +
      'Coverage does not begin until the company accepts this application and issues the policy.',
  );
  flow.space(10);
  drawSignatureLines(flow, ["Applicant's signature", 'Date', "Agent's signature"]);
  return sections.finishDocument(flow);
}
