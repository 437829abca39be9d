/** Sections that several deliverables print the same way: parties, properties, coverages, money, forms. */
import { PDFDocument } from 'pdf-lib';
import { addressLines, formatDocumentDate, formatMoney, formatOptionalMoney, numberLabel, singleLineAddress } from '../format.js';
import type { BillingDetails, CoverageLine, FormReference, PolicyDocument } from '../model.js';
import { drawFieldGrid, drawTable, type Field, type TableColumn, type TableRow } from './blocks.js';
import { PageFlow } from './layout.js';

const PRODUCER = 'insurance-admin-service';

/** A new PDF whose metadata comes from the document only, so equal input gives equal bytes. */
export async function startDocument(document: PolicyDocument, title = document.type): Promise<PageFlow> {
  const pdf = await PDFDocument.create({ updateMetadata: false });
  const issued = new Date(`${document.issueDate}T00:00:00Z`);
  if (Number.isNaN(issued.getTime())) throw new RangeError(`issueDate ${document.issueDate} is not a date`);
  pdf.setTitle(`${title} ${document.policyNumber}`);
  pdf.setAuthor(document.carrier.name);
  pdf.setSubject(`${title}, ${numberLabel(document.type).toLowerCase()} ${document.policyNumber}`);
  pdf.setProducer(PRODUCER);
  pdf.setCreator(PRODUCER);
  pdf.setCreationDate(issued);
  pdf.setModificationDate(issued);
  return PageFlow.start(pdf, {
    carrierName: document.carrier.name,
    carrierAddress: [singleLineAddress(document.carrier.address), document.carrier.phone].filter(Boolean).join('  |  '),
    title,
    policyNumber: document.policyNumber,
    numberLabel: numberLabel(document.type),
    footerNote: `${document.carrier.name}  |  ${title}  |  Issued ${formatDocumentDate(document.issueDate)}`,
  });
}

export async function finishDocument(flow: PageFlow): Promise<Uint8Array> {
  flow.finish();
  return flow.pdf.save();
}

function insuredField(document: PolicyDocument, label: string): Field {
  const [first, ...others] = document.namedInsureds;
  if (!first) return { label, lines: ['-'] };
  return { label, lines: [first.name, ...others.map((insured) => insured.name), ...addressLines(first.mailingAddress)] };
}

function producerField(document: PolicyDocument): Field {
  const producer = document.producer;
  if (!producer) return { label: 'Agency', lines: ['Direct'] };
  const lines = [producer.agencyName, producer.agentName ? `Agent: ${producer.agentName}` : '', ...(producer.address ? addressLines(producer.address) : []), producer.phone ?? ''];
  return { label: 'Agency', lines: lines.filter((line) => line !== '') };
}

/** Who is insured, through whom, for which period. */
export function drawParties(flow: PageFlow, document: PolicyDocument, insuredLabel = 'Named Insured'): void {
  const period: Field = {
    label: 'Policy Period',
    lines: [`${formatDocumentDate(document.term.effectiveDate)} to ${formatDocumentDate(document.term.expirationDate)}`, '12:01 AM standard time at the', 'residence premises'],
  };
  drawFieldGrid(flow, [insuredField(document, insuredLabel), producerField(document), period], 3);
  drawFieldGrid(flow, [
    { label: 'Policy Type', lines: [document.policyType] },
    { label: numberLabel(document.type), lines: [document.policyNumber] },
    { label: 'Date Issued', lines: [formatDocumentDate(document.issueDate)] },
  ], 3);
}

/** One row per property: where it is and what it is built of. */
export function drawPropertySchedule(flow: PageFlow, document: PolicyDocument): void {
  if (document.properties.length === 0) return;
  const title = 'Insured Properties';
  flow.section(title);
  const columns: TableColumn[] = [
    { header: 'Property', width: 0.13 },
    { header: 'Address', width: 0.45 },
    { header: 'Year Built', width: 0.12, align: 'right' },
    { header: 'Construction', width: 0.15 },
    { header: 'Prot. Class', width: 0.15, align: 'right' },
  ];
  const rows = document.properties.map((property) => ({
    cells: [property.name, singleLineAddress(property.address), property.yearBuilt ?? '-', property.construction ?? '-', property.protectionClass ?? '-'],
  }));
  drawTable(flow, columns, rows, { continuedTitle: title });
}

const COVERAGE_COLUMNS: TableColumn[] = [
  { header: 'Coverage', width: 0.43 },
  { header: 'Limit', width: 0.2, align: 'right' },
  { header: 'Deductible', width: 0.17, align: 'right' },
  { header: 'Premium', width: 0.2, align: 'right' },
];

function coverageRow(coverage: CoverageLine): TableRow {
  return { cells: [coverage.name, formatOptionalMoney(coverage.limit), formatOptionalMoney(coverage.deductible), formatMoney(coverage.premium)] };
}

/** Section I coverages, grouped under a heading row per property. */
export function drawPropertyCoverages(flow: PageFlow, document: PolicyDocument, title = 'Section I - Property Coverages'): void {
  if (document.properties.length === 0) return;
  flow.section(title);
  const rows: TableRow[] = document.properties.flatMap((property) => [
    { cells: [`${property.name}: ${singleLineAddress(property.address)}`], style: 'group' as const },
    ...property.coverages.map(coverageRow),
  ]);
  drawTable(flow, COVERAGE_COLUMNS, rows, { continuedTitle: title });
}

export function drawPolicyCoverages(flow: PageFlow, coverages: CoverageLine[], title = 'Section II - Liability Coverages'): void {
  if (coverages.length === 0) return;
  flow.section(title);
  drawTable(flow, COVERAGE_COLUMNS, coverages.map(coverageRow), { continuedTitle: title });
}

function subtotal(coverages: CoverageLine[]): number {
  return coverages.reduce((total, coverage) => total + coverage.premium, 0);
}

/**
 * How the total comes about, in the order a reader checks it: coverage premiums, each
 * adjustment, the premium; each fee, the fees; the total cost.
 */
export function drawPremiumSummary(flow: PageFlow, document: PolicyDocument, title = 'Premium Summary'): void {
  const { totals } = document;
  const rows: TableRow[] = [];
  if (document.properties.length > 0) rows.push({ cells: ['Property coverages', formatMoney(subtotal(document.properties.flatMap((property) => property.coverages)))] });
  if (document.policyCoverages.length > 0) rows.push({ cells: ['Liability coverages', formatMoney(subtotal(document.policyCoverages))] });
  rows.push(...document.adjustments.map((adjustment) => ({ cells: [adjustment.name, formatMoney(adjustment.amount)] })));
  rows.push({ cells: ['Total Premium', formatMoney(totals.premium)], style: 'total' });
  rows.push(...document.fees.map((fee) => ({ cells: [fee.name, formatMoney(fee.amount)] })));
  rows.push({ cells: ['Total Fees', formatMoney(totals.fees)], style: 'total' });
  rows.push({ cells: ['Total Policy Cost', `$${formatMoney(totals.total)}`], style: 'total' });
  flow.section(title, rows.length * 16 + 20);
  const columns: TableColumn[] = [{ header: 'Annual amounts (USD)', width: 0.65 }, { header: 'Amount', width: 0.35, align: 'right' }];
  drawTable(flow, columns, rows, { widthShare: 0.5 });
}

export function drawForms(flow: PageFlow, forms: FormReference[]): void {
  if (forms.length === 0) return;
  const title = 'Forms and Endorsements';
  flow.section(title);
  const columns: TableColumn[] = [{ header: 'Form', width: 0.16 }, { header: 'Edition', width: 0.12 }, { header: 'Description', width: 0.72 }];
  drawTable(flow, columns, forms.map((form) => ({ cells: [form.code, form.edition, form.description] })), { continuedTitle: title });
}

/** The installments of the billing schedule, with their sum. */
export function drawInstallments(flow: PageFlow, billing: BillingDetails, title = 'Payment Schedule'): void {
  flow.section(`${title}: ${billing.scheduleLabel}`);
  const columns: TableColumn[] = [
    { header: 'Installment', width: 0.25 },
    { header: 'Bill Date', width: 0.25 },
    { header: 'Due Date', width: 0.25 },
    { header: 'Amount', width: 0.25, align: 'right' },
  ];
  const rows: TableRow[] = billing.installments.map((installment) => ({
    cells: [`${installment.number} of ${billing.installments.length}`, installment.billDate ? formatDocumentDate(installment.billDate) : '-', formatDocumentDate(installment.dueDate), formatMoney(installment.amount)],
  }));
  const total = billing.installments.reduce((sum, installment) => sum + installment.amount, 0);
  rows.push({ cells: ['Total', '', '', formatMoney(total)], style: 'total' });
  drawTable(flow, columns, rows, { continuedTitle: `${title}: ${billing.scheduleLabel}` });
}
