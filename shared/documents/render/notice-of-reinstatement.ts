/** The Notice of Reinstatement: the policy is back in force, from when, and the days it was without cover if any. */
import { IncompleteDocumentError, type PolicyDocument } from '../model.js';
import { formatDocumentDate } from '../format.js';
import { drawCallout, drawTable } from './blocks.js';
import * as sections from './sections.js';

export async function renderNoticeOfReinstatement(document: PolicyDocument): Promise<Uint8Array> {
  const reinstatement = document.reinstatement;
  if (!reinstatement) throw new IncompleteDocumentError(document.type, 'reinstatement details');
  const flow = await sections.startDocument(document);
  const from = formatDocumentDate(reinstatement.reinstatementDate);
  drawCallout(
    flow,
    `Policy ${document.policyNumber} is reinstated effective ${from}`,
    reinstatement.lapseDays > 0
      ? `Coverage resumes at 12:01 AM standard time on ${from}. Losses that happened from ${formatDocumentDate(reinstatement.cancelDate)} until then are not covered.`
      : `The cancellation effective ${formatDocumentDate(reinstatement.cancelDate)} is withdrawn: coverage continues as if the policy had never been cancelled.`,
  );
  sections.drawParties(flow, document);
  flow.section('Reinstatement Details');
  drawTable(flow, [{ header: 'Item', width: 0.55 }, { header: 'Detail', width: 0.45, align: 'right' }], [
    { cells: ['Cancellation withdrawn', formatDocumentDate(reinstatement.cancelDate)] },
    { cells: ['Coverage in force from', from] },
    { cells: ['Days without coverage', String(reinstatement.lapseDays)] },
  ]);
  if (document.producer) flow.paragraph(`Questions about this notice? Contact ${document.producer.agencyName}${document.producer.phone ? ` at ${document.producer.phone}` : ''}.`);
  return sections.finishDocument(flow);
}
