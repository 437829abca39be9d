/** A statement to a party that is not a policy (an agency's commission statement): heading fields, its lines, a totals box. */
import { PDFDocument } from 'pdf-lib';
import { DEFAULT_CARRIER } from '../assemble.js';
import { addressLines, formatDocumentDate, singleLineAddress } from '../format.js';
import type { Carrier, PartyStatement } from '../model.js';
import { drawFieldGrid, drawTable } from './blocks.js';
import { PageFlow } from './layout.js';

const PRODUCER = 'insurance-admin-service';

export async function renderPartyStatement(statement: PartyStatement, carrier: Carrier = DEFAULT_CARRIER): Promise<Uint8Array> {
  const pdf = await PDFDocument.create({ updateMetadata: false });
  const issued = new Date(`${statement.issueDate}T00:00:00Z`);
  if (Number.isNaN(issued.getTime())) throw new RangeError(`issueDate ${statement.issueDate} is not a date`);
  pdf.setTitle(`${statement.title} ${statement.reference}`);
  pdf.setAuthor(carrier.name);
  pdf.setProducer(PRODUCER);
  pdf.setCreator(PRODUCER);
  pdf.setCreationDate(issued);
  pdf.setModificationDate(issued);
  const flow = await PageFlow.start(pdf, {
    carrierName: carrier.name,
    carrierAddress: [singleLineAddress(carrier.address), carrier.phone].filter(Boolean).join('  |  '),
    title: statement.title,
    policyNumber: statement.reference,
    numberLabel: statement.numberLabel ?? 'Statement',
    footerNote: `${statement.title} ${statement.reference} dated ${formatDocumentDate(statement.issueDate)}`,
  });
  drawFieldGrid(flow, [
    { label: 'To', lines: [statement.party.name, ...(statement.party.address ? addressLines(statement.party.address) : [])] },
    ...statement.heading.map((field) => ({ label: field.label, lines: [field.value] })),
  ], Math.min(3, 1 + statement.heading.length));
  const tableTitle = statement.tableTitle ?? 'Transactions';
  flow.section(tableTitle);
  if (statement.rows.length) drawTable(flow, statement.columns, statement.rows.map((cells) => ({ cells })), { continuedTitle: tableTitle });
  else flow.paragraph(statement.emptyText ?? 'No transactions this period.');
  if (statement.payments?.rows.length) {
    flow.section(statement.payments.title);
    drawTable(flow, statement.payments.columns, statement.payments.rows.map((cells) => ({ cells })), { continuedTitle: statement.payments.title });
  }
  flow.section('Summary');
  drawTable(
    flow,
    [{ header: '', width: 0.6 }, { header: 'Amount', width: 0.4, align: 'right' }],
    statement.summary.map((line, index) => ({ cells: [line.label, line.value], style: index === statement.summary.length - 1 ? 'total' : 'plain' })),
    { widthShare: 0.45 },
  );
  flow.finish();
  return pdf.save();
}
