/**
 * The Endorsement Declaration: the Declaration of the policy as endorsed, opened by what the
 * endorsement changed, from when, and the premium it adds or returns for the rest of the term.
 */
import type { PolicyDocument } from '../model.js';
import { formatDocumentDate, formatMoney } from '../format.js';
import { drawCallout, drawTable } from './blocks.js';
import * as sections from './sections.js';

export async function renderEndorsementDeclaration(document: PolicyDocument): Promise<Uint8Array> {
  const flow = await sections.startDocument(document);
  const endorsement = document.endorsement;
  if (endorsement) {
    const effective = formatDocumentDate(endorsement.effectiveDate);
    const change = endorsement.premiumChange;
    drawCallout(
      flow,
      `Policy ${document.policyNumber} is changed effective ${effective}`,
      `${change < 0 ? 'Return' : 'Additional'} premium for the rest of the policy period: $${formatMoney(Math.abs(change))}. The coverages below are those in force from ${effective}.`,
    );
  }
  sections.drawParties(flow, document);
  flow.section('What This Endorsement Changes');
  if (endorsement && endorsement.changes.length) {
    drawTable(flow, [{ header: 'Changed', width: 0.4 }, { header: 'Before', width: 0.3, align: 'right' }, { header: 'After', width: 0.3, align: 'right' }],
      endorsement.changes.map((line) => ({ cells: [line.label, line.before, line.after] })));
  } else {
    flow.paragraph('No change of coverage is recorded for this revision.');
  }
  if (endorsement && endorsement.items.length) {
    flow.section('Premium Change');
    drawTable(flow, [{ header: 'Item', width: 0.34 }, { header: 'Annual before', width: 0.22, align: 'right' }, { header: 'Annual after', width: 0.22, align: 'right' }, { header: 'This change', width: 0.22, align: 'right' }], [
      ...endorsement.items.map((item) => ({ cells: [item.name, formatMoney(item.oldAnnual), formatMoney(item.newAnnual), formatMoney(item.additional)] })),
      { cells: [endorsement.premiumChange < 0 ? 'Return premium' : 'Additional premium', '', '', `$${formatMoney(endorsement.premiumChange)}`], style: 'total' as const },
    ]);
  }
  sections.drawPropertySchedule(flow, document);
  sections.drawPropertyCoverages(flow, document);
  sections.drawPolicyCoverages(flow, document.policyCoverages);
  sections.drawPremiumSummary(flow, document);
  sections.drawForms(flow, document.forms);
  flow.space(6);
  flow.paragraph('This endorsement forms part of your policy. All other terms and conditions of the policy remain unchanged.', { size: 8.5 });
  return sections.finishDocument(flow);
}
