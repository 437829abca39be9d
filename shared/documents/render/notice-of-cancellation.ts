/** The Notice of Cancellation: which policy ends, when, why, and what premium comes back. */
import { IncompleteDocumentError, type PolicyDocument } from '../model.js';
import { formatDocumentDate, formatMoney } from '../format.js';
import { drawCallout, drawTable } from './blocks.js';
import * as sections from './sections.js';

export async function renderNoticeOfCancellation(document: PolicyDocument): Promise<Uint8Array> {
  const cancellation = document.cancellation;
  if (!cancellation) throw new IncompleteDocumentError(document.type, 'cancellation details');
  const flow = await sections.startDocument(document);
  const effective = formatDocumentDate(cancellation.cancelDate);
  drawCallout(
    flow,
    cancellation.pending ? `Policy ${document.policyNumber} will be cancelled effective ${effective}` : `Policy ${document.policyNumber} is cancelled effective ${effective}`,
    cancellation.pending
      ? `Unless the reason below is resolved before then (for non-payment: the amount due is received), coverage ends at 12:01 AM standard time on ${effective}.`
      : `Coverage under this policy ends at 12:01 AM standard time on ${effective}. Losses that happen after that moment are not covered.`,
  );
  sections.drawParties(flow, document);
  flow.section('Cancellation Details');
  drawTable(flow, [{ header: 'Item', width: 0.55 }, { header: 'Detail', width: 0.45, align: 'right' }], [
    { cells: ['Reason for cancellation', cancellation.reason] },
    { cells: ['Cancellation effective date', formatDocumentDate(cancellation.cancelDate)] },
    { cells: ['Annual premium', formatMoney(document.totals.premium)] },
    ...(cancellation.pending ? [] : [{ cells: ['Return premium', `$${formatMoney(cancellation.returnPremium)}`], style: 'total' as const }]),
  ]);
  if (!cancellation.pending) flow.paragraph(
    cancellation.returnPremium > 0
      ? 'The return premium is the unearned part of your premium, figured pro rata by days. Fees are fully earned and are not returned.'
      : 'No premium is returned: the premium for the period the policy was in force is fully earned.',
  );
  if (document.producer) flow.paragraph(`Questions about this notice? Contact ${document.producer.agencyName}${document.producer.phone ? ` at ${document.producer.phone}` : ''}.`);
  return sections.finishDocument(flow);
}
