/** The Quote Summary: the quoted coverages and price, clearly not a policy. */
import type { PolicyDocument } from '../model.js';
import { formatDocumentDate, formatMoney } from '../format.js';
import { drawCallout } from './blocks.js';
import * as sections from './sections.js';

export async function renderQuoteSummary(document: PolicyDocument): Promise<Uint8Array> {
  const flow = await sections.startDocument(document);
  drawCallout(
    flow,
    `Quoted total: $${formatMoney(document.totals.total)} for the term starting ${formatDocumentDate(document.term.effectiveDate)}`,
    'This is a quote, not a policy: no coverage is in force until the policy is bound and issued. ' +
      'The price may change if any information in this quote changes.',
  );
  sections.drawParties(flow, document, 'Prepared For');
  sections.drawPropertySchedule(flow, document);
  sections.drawPropertyCoverages(flow, document, 'Quoted Property Coverages');
  sections.drawPolicyCoverages(flow, document.policyCoverages, 'Quoted Liability Coverages');
  sections.drawPremiumSummary(flow, document, 'Quoted Premium');
  if (document.billing) sections.drawInstallments(flow, document.billing, 'Payment Option');
  sections.drawForms(flow, document.forms);
  return sections.finishDocument(flow);
}
