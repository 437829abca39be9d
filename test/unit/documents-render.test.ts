import { execFileSync } from 'node:child_process';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { formatMoney } from '../../shared/documents/format.js';
import { DELIVERABLE_TYPES, IncompleteDocumentError, totalsFromParts, type PolicyDocument } from '../../shared/documents/model.js';
import { renderDeliverablePdf } from '../../shared/documents/render/index.js';
import { workedExampleDocument } from '../support/document-samples.js';

/** The text a reader (or a screen reader) gets out of the PDF, one string per page. */
function pagesOf(pdf: Uint8Array): string[] {
  const text = execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', '-', '-'], { input: Buffer.from(pdf) }).toString('utf8');
  return text.split('\f').slice(0, -1);
}

function manyProperties(count: number): PolicyDocument {
  const document = workedExampleDocument('Declaration');
  const [model] = document.properties;
  document.properties = Array.from({ length: count }, (_, index) => ({
    ...model,
    name: `Property #${index + 1}`,
    address: { ...model.address, line1: `${index + 1} Maple Avenue` },
  }));
  document.totals = totalsFromParts(document);
  return document;
}

describe('money on documents', () => {
  it('prints cents with thousands separators and two decimals, exactly', () => {
    expect(formatMoney(0)).toBe('0.00');
    expect(formatMoney(5)).toBe('0.05');
    expect(formatMoney(82662)).toBe('826.62');
    expect(formatMoney(-8663)).toBe('-86.63');
    expect(formatMoney(25_000_000)).toBe('250,000.00');
    expect(formatMoney(123_456_789_01)).toBe('123,456,789.01');
    expect(() => formatMoney(0.5)).toThrow(RangeError);
  });

  it('adds the worked example up to premium 826.62, fees 25.00, total 851.62', () => {
    expect(totalsFromParts(workedExampleDocument())).toEqual({ premium: 82662, fees: 2500, total: 85162 });
  });
});

describe('the worked-example Declaration', () => {
  it('shows the policy number, the named insured, the coverages, the totals and the form', async () => {
    const [first, ...rest] = pagesOf(await renderDeliverablePdf(workedExampleDocument('Declaration')));
    const text = [first, ...rest].join('\n');
    expect(first).toContain('Policy Number 10-2026-1');
    expect(first).toContain('Jordan Avery');
    expect(first).toContain('Homeowner - HO3');
    expect(first).toMatch(/Coverage A - Dwelling\s+250,000\.00\s+1,000\.00\s+866\.25/);
    expect(first).toMatch(/Claims-Free Discount\s+-86\.63/);
    expect(first).toMatch(/Total Premium\s+826\.62/);
    expect(first).toMatch(/Total Fees\s+25\.00/);
    expect(first).toMatch(/Total Policy Cost\s+\$851\.62/);
    expect(text).toMatch(/HO 00 03\s+05 11\s+Homeowners 3 - Special Form/);
    expect(first).toContain(`Page 1 of ${rest.length + 1}`);
  });

  it('is byte for byte the same on every render, dated by its issue date', async () => {
    const once = await renderDeliverablePdf(workedExampleDocument());
    const again = await renderDeliverablePdf(workedExampleDocument());
    expect(Buffer.from(again).equals(Buffer.from(once))).toBe(true);
    const loaded = await PDFDocument.load(once, { updateMetadata: false });
    expect(loaded.getCreationDate()?.toISOString()).toBe('2026-06-15T00:00:00.000Z');
    expect(loaded.getTitle()).toBe('Declaration 10-2026-1');
  });
});

describe('every deliverable type', () => {
  it.each(DELIVERABLE_TYPES)('renders a %s that shows its title on a Letter page', async (type) => {
    const pdf = await renderDeliverablePdf(workedExampleDocument(type));
    const [first] = pagesOf(pdf);
    expect(first).toContain(type);
    expect(first).toContain('10-2026-1');
    const [page] = (await PDFDocument.load(pdf)).getPages();
    expect(page.getSize()).toEqual({ width: 612, height: 792 });
  });

  it('prints what each type is for', async () => {
    const text = async (type: (typeof DELIVERABLE_TYPES)[number]) => pagesOf(await renderDeliverablePdf(workedExampleDocument(type))).join('\n');
    expect(await text('Quote Summary')).toContain('Quote Number 10-2026-1');
    expect(await text('Installment Billing Statement')).toMatch(/Amount Due: \$107\.66 by 07\/01\/2026/);
    expect(await text('Installment Billing Statement')).toMatch(/10 of 10\s+03\/12\/2027\s+04\/01\/2027\s+85\.68/);
    expect(await text('Notice of Cancellation')).toMatch(/Return premium\s+\$409\.91/);
    expect(await text('Policy Application')).toContain("Applicant's signature");
    expect(await text('Notice of Non-Renewal')).toMatch(/Reason for non-renewal\s+Loss History/);
    expect(await text('Conditional Renewal Notice')).toMatch(/Change\s+14\.93%/);
    expect(await text('Renewal Billing Statement')).toMatch(/Amount Due: \$107\.66 by 07\/01\/2026/);
  });

  it('refuses a notice without its cancellation or a statement without its schedule', async () => {
    const notice = { ...workedExampleDocument('Notice of Cancellation'), cancellation: undefined };
    await expect(renderDeliverablePdf(notice)).rejects.toThrow(IncompleteDocumentError);
    await expect(renderDeliverablePdf({ ...workedExampleDocument('Notice of Non-Renewal'), renewalNotice: undefined })).rejects.toThrow(IncompleteDocumentError);
    const statement = { ...workedExampleDocument('Installment Billing Statement'), billing: undefined };
    await expect(renderDeliverablePdf(statement)).rejects.toThrow(IncompleteDocumentError);
  });

  it('prints a name the standard fonts cannot draw with question marks instead of failing', async () => {
    const document = workedExampleDocument();
    document.namedInsureds[0].name = 'Zoë Łukasz 李\u2212Smith';
    const [first] = pagesOf(await renderDeliverablePdf(document));
    expect(first).toContain('Zoë ?ukasz ?-Smith');
  });
});

describe('a 100-property Declaration', () => {
  it('runs over many pages, each with the header band, headings repeated and page x of y', async () => {
    const pdf = await renderDeliverablePdf(manyProperties(100));
    const pages = pagesOf(pdf);
    expect(pages.length).toBe((await PDFDocument.load(pdf)).getPageCount());
    expect(pages.length).toBeGreaterThan(10);
    pages.forEach((page, index) => {
      expect(page).toContain('Policy Number 10-2026-1');
      expect(page).toContain(`Page ${index + 1} of ${pages.length}`);
    });
    const continued = pages.filter((page) => page.includes('Section I - Property Coverages (continued)'));
    expect(continued.length).toBeGreaterThan(5);
    for (const page of continued) expect(page).toMatch(/Coverage\s+Limit\s+Deductible\s+Premium/);
    const text = pages.join('\n');
    expect(text).toContain('Property #100: 100 Maple Avenue');
    expect(text.match(/Coverage A - Dwelling/g)).toHaveLength(100);
    expect(text).toMatch(/Total Premium\s+86,585\.37/);
  });
});
