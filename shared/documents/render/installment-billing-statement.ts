/** The Installment Billing Statement: what is due, by when, and the whole payment plan. */
import { IncompleteDocumentError, type BillingDetails, type PolicyDocument } from '../model.js';
import { addressLines, formatDocumentDate, formatMoney } from '../format.js';
import { drawCallout, drawFieldGrid } from './blocks.js';
import type { PageFlow } from './layout.js';
import * as sections from './sections.js';

export async function renderInstallmentBillingStatement(document: PolicyDocument): Promise<Uint8Array> {
  const billing = document.billing;
  if (!billing) throw new IncompleteDocumentError(document.type, 'a billing schedule');
  const flow = await sections.startDocument(document);
  const due = amountDue(billing);
  drawCallout(flow, `Amount Due: $${formatMoney(due.amount)} by ${formatDocumentDate(due.date)}`, 'Please pay by the due date to keep your policy in force.');
  sections.drawParties(flow, document, 'Bill To');
  sections.drawInstallments(flow, billing);
  drawRemittanceStub(flow, document, due);
  return sections.finishDocument(flow);
}

/** The statement's amount due, or else the first installment's. */
function amountDue(billing: BillingDetails): { amount: number; date: string } {
  const first = billing.installments[0];
  return { amount: billing.amountDue ?? first?.amount ?? 0, date: billing.amountDueDate ?? first?.dueDate ?? '' };
}

const REMITTANCE_HEIGHT = 128;

/** The part the insured tears off and mails back with the check, at the foot of the page. */
function drawRemittanceStub(flow: PageFlow, document: PolicyDocument, due: { amount: number; date: string }): void {
  flow.toFootOfPage(REMITTANCE_HEIGHT);
  const y = flow.cursor;
  for (let x = flow.left; x < flow.left + flow.width; x += 8) {
    flow.currentPage.drawLine({ start: { x, y }, end: { x: Math.min(x + 4, flow.left + flow.width), y }, thickness: 0.6 });
  }
  flow.space(12);
  flow.paragraph('Please detach and return this part with your payment. Write your policy number on your check.', { size: 8.5 });
  drawFieldGrid(flow, [
    { label: 'Policy Number', lines: [document.policyNumber] },
    { label: 'Amount Due', lines: [`$${formatMoney(due.amount)}`, `Due ${formatDocumentDate(due.date)}`] },
    { label: 'Make Payable To', lines: [document.carrier.name, ...addressLines(document.carrier.address)] },
  ], 3);
}
