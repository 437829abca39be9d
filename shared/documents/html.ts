/**
 * A minimal HTML deliverable from the same document model, for `newCustomDeliverable` when it
 * is asked to generate the HTML. Every piece of text from the model is escaped: a named
 * insured called `<script>` prints as that text and runs nothing. No scripts, no external
 * resources: the page is self-contained and safe to serve from the bucket.
 */
import { addressLines, formatDocumentDate, formatMoney, formatOptionalMoney, numberLabel, singleLineAddress } from './format.js';
import type { CoverageLine, PolicyDocument } from './model.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character]);
}

const STYLE = [
  'body{font-family:Helvetica,Arial,sans-serif;color:#1a1a1f;max-width:760px;margin:24px auto;font-size:14px}',
  'header{background:#17335c;color:#fff;padding:12px 16px;display:flex;justify-content:space-between}',
  'h1{font-size:20px;margin:0}h2{color:#17335c;font-size:16px;border-bottom:1px solid #17335c;margin-top:24px}',
  'table{border-collapse:collapse;width:100%}th{background:#e0e8f2;text-align:left}th,td{padding:4px 6px}',
  '.money{text-align:right;white-space:nowrap}.total td{font-weight:bold;border-top:1px solid #1a1a1f}',
].join('');

type Cell = { text: string; money?: boolean };

function table(headings: Cell[], rows: Cell[][], totalRows = 0): string {
  const cell = (tag: 'th' | 'td', value: Cell) => `<${tag}${value.money ? ' class="money"' : ''}>${escapeHtml(value.text)}</${tag}>`;
  const body = rows.map((row, index) => `<tr${index >= rows.length - totalRows ? ' class="total"' : ''}>${row.map((value) => cell('td', value)).join('')}</tr>`);
  return `<table><thead><tr>${headings.map((value) => cell('th', value)).join('')}</tr></thead><tbody>${body.join('')}</tbody></table>`;
}

const money = (cents: number): Cell => ({ text: formatMoney(cents), money: true });

function coverageTable(coverages: CoverageLine[]): string {
  const headings = [{ text: 'Coverage' }, { text: 'Limit', money: true }, { text: 'Deductible', money: true }, { text: 'Premium', money: true }];
  const rows = coverages.map((coverage) => [
    { text: coverage.name },
    { text: formatOptionalMoney(coverage.limit), money: true },
    { text: formatOptionalMoney(coverage.deductible), money: true },
    money(coverage.premium),
  ]);
  return table(headings, rows);
}

function lines(values: string[]): string {
  return values.map(escapeHtml).join('<br>');
}

function partiesSection(document: PolicyDocument): string {
  const insured = document.namedInsureds[0];
  const insuredLines = [...document.namedInsureds.map((named) => named.name), ...(insured ? addressLines(insured.mailingAddress) : [])];
  const period = `${formatDocumentDate(document.term.effectiveDate)} to ${formatDocumentDate(document.term.expirationDate)}`;
  const rows = [
    ['Named Insured', lines(insuredLines)],
    ['Agency', lines(document.producer ? [document.producer.agencyName, document.producer.agentName ?? ''].filter(Boolean) : ['Direct'])],
    ['Policy Period', escapeHtml(period)],
    ['Policy Type', escapeHtml(document.policyType)],
    ['Date Issued', escapeHtml(formatDocumentDate(document.issueDate))],
  ];
  return `<table>${rows.map(([label, value]) => `<tr><th>${escapeHtml(label)}</th><td>${value}</td></tr>`).join('')}</table>`;
}

function coverageSections(document: PolicyDocument): string[] {
  const sections = document.properties.map(
    (property) => `<h2>${escapeHtml(`${property.name}: ${singleLineAddress(property.address)}`)}</h2>${coverageTable(property.coverages)}`,
  );
  if (document.policyCoverages.length > 0) sections.push(`<h2>Liability Coverages</h2>${coverageTable(document.policyCoverages)}`);
  return sections;
}

function premiumSection(document: PolicyDocument): string {
  const rows: Cell[][] = [
    ...document.adjustments.map((adjustment) => [{ text: adjustment.name }, money(adjustment.amount)]),
    ...document.fees.map((fee) => [{ text: fee.name }, money(fee.amount)]),
    [{ text: 'Total Premium' }, money(document.totals.premium)],
    [{ text: 'Total Fees' }, money(document.totals.fees)],
    [{ text: 'Total Policy Cost' }, money(document.totals.total)],
  ];
  return `<h2>Premium Summary</h2>${table([{ text: 'Description' }, { text: 'Amount (USD)', money: true }], rows, 3)}`;
}

function formsSection(document: PolicyDocument): string {
  if (document.forms.length === 0) return '';
  const rows = document.forms.map((form) => [{ text: form.code }, { text: form.edition }, { text: form.description }]);
  return `<h2>Forms and Endorsements</h2>${table([{ text: 'Form' }, { text: 'Edition' }, { text: 'Description' }], rows)}`;
}

function billingSection(document: PolicyDocument): string {
  if (!document.billing) return '';
  const headings = [{ text: 'Installment' }, { text: 'Due Date' }, { text: 'Amount', money: true }];
  const rows = document.billing.installments.map((installment) => [{ text: String(installment.number) }, { text: formatDocumentDate(installment.dueDate) }, money(installment.amount)]);
  return `<h2>${escapeHtml(`Payment Schedule: ${document.billing.scheduleLabel}`)}</h2>${table(headings, rows)}`;
}

function cancellationSection(document: PolicyDocument): string {
  if (!document.cancellation) return '';
  const { reason, cancelDate, returnPremium } = document.cancellation;
  const rows = [
    [{ text: 'Reason for cancellation' }, { text: reason }],
    [{ text: 'Cancellation effective date' }, { text: formatDocumentDate(cancelDate) }],
    [{ text: 'Return premium' }, money(returnPremium)],
  ];
  return `<h2>Cancellation</h2>${table([{ text: 'Item' }, { text: 'Detail' }], rows, 1)}`;
}

/** The document as one self-contained HTML page; `title` overrides the deliverable type as its heading. */
export function renderDeliverableHtml(document: PolicyDocument, title: string = document.type): string {
  const heading = `${numberLabel(document.type)} ${document.policyNumber}`;
  const body = [
    `<header><div><strong>${escapeHtml(document.carrier.name)}</strong><br>${escapeHtml(singleLineAddress(document.carrier.address))}</div>`,
    `<div><h1>${escapeHtml(title)}</h1>${escapeHtml(heading)}</div></header>`,
    partiesSection(document),
    ...coverageSections(document),
    cancellationSection(document),
    premiumSection(document),
    billingSection(document),
    formsSection(document),
  ].join('\n');
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>${escapeHtml(`${title} ${document.policyNumber}`)}</title>`,
    `<style>${STYLE}</style></head>`,
    `<body>${body}</body></html>`,
  ].join('\n');
}
