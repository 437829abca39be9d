/** The Declaration: what is insured, for how much, for what premium, under which forms. */
import type { PolicyDocument } from '../model.js';
import * as sections from './sections.js';

export async function renderDeclaration(document: PolicyDocument): Promise<Uint8Array> {
  const flow = await sections.startDocument(document);
  sections.drawParties(flow, document);
  sections.drawPropertySchedule(flow, document);
  sections.drawPropertyCoverages(flow, document);
  sections.drawPolicyCoverages(flow, document.policyCoverages);
  sections.drawPremiumSummary(flow, document);
  if (document.billing) sections.drawInstallments(flow, document.billing);
  sections.drawForms(flow, document.forms);
  flow.space(6);
  flow.paragraph(
    'These declarations, together with the policy forms and endorsements listed above, make up your policy. ' +
      'Coverage applies only to the properties and coverages shown, for the policy period shown.',
    { size: 8.5 },
  );
  return sections.finishDocument(flow);
}
