/** The renewal notices: a renewal held for an underwriter's review (conditional), and a policy that will not renew. */
import { IncompleteDocumentError, type PolicyDocument } from '../model.js';
import { formatDocumentDate, formatMoney } from '../format.js';
import { drawCallout, drawTable } from './blocks.js';
import * as sections from './sections.js';

export async function renderRenewalNotice(document: PolicyDocument): Promise<Uint8Array> {
  const notice = document.renewalNotice;
  if (!notice) throw new IncompleteDocumentError(document.type, 'renewal notice details');
  const flow = await sections.startDocument(document);
  const ends = formatDocumentDate(notice.expirationDate);
  if (notice.kind === 'non-renewal') {
    drawCallout(
      flow,
      `Policy ${document.policyNumber} will not be renewed`,
      `Coverage under this policy ends at 12:01 AM standard time on ${ends}, at the end of its current term. Losses that happen after that moment are not covered.`,
    );
    sections.drawParties(flow, document);
    flow.section('Non-Renewal Details');
    drawTable(flow, [{ header: 'Item', width: 0.55 }, { header: 'Detail', width: 0.45, align: 'right' }], [
      { cells: ['Reason for non-renewal', notice.reason ?? ''] },
      ...(notice.description ? [{ cells: ['Explanation', notice.description] }] : []),
      { cells: ['Coverage ends', ends] },
    ]);
    flow.paragraph('You may want to arrange other insurance before this date. If you believe this decision is mistaken, contact us or your agent before the date above.');
  } else {
    drawCallout(
      flow,
      `The renewal of policy ${document.policyNumber} is under review`,
      `Your policy renews on ${ends} subject to an underwriter's review of its premium. You will receive the renewal's declaration once it is approved.`,
    );
    sections.drawParties(flow, document);
    flow.section('Renewal Premium');
    drawTable(flow, [{ header: 'Item', width: 0.55 }, { header: 'Amount', width: 0.45, align: 'right' }], [
      { cells: ['Premium of the current term', formatMoney(notice.previousPremium ?? 0)] },
      { cells: ['Premium offered for the renewal', formatMoney(notice.renewalPremium ?? 0)] },
      { cells: ['Change', `${notice.changePercent ?? '0.00'}%`], style: 'total' as const },
    ]);
  }
  if (document.producer) flow.paragraph(`Questions about this notice? Contact ${document.producer.agencyName}${document.producer.phone ? ` at ${document.producer.phone}` : ''}.`);
  return sections.finishDocument(flow);
}
