/**
 * Rating worksheets (a product package's worksheets/*.json, docs/products.md): a quote request
 * as a client sends it and the figures a rate filing shows for it (each item's running totals
 * by step, its annual amount, its territory, and the totals). A worksheet is rated through the
 * quote path and the real engine; every figure that differs is answered.
 */
import type { ProductCatalog } from '../catalog/index.js';
import type { Worksheet } from '../catalog/index.js';
import { formatCents, sameAmount } from '../platform/money.js';
import type { RatedLineItem } from '../rating/index.js';
import type { QuoteInfo } from './model.js';
import { quoteInfo } from './schemas.js';
import { rateQuoteInMemory } from './service.js';

/** One figure of a worksheet that the engine did not reproduce. */
export interface WorksheetDifference {
  /** What the figure is, in words (`Dwelling at location 0, step Territory`). */
  figure: string;
  expected: string;
  actual: string;
}

export interface WorksheetRun {
  file: string;
  name: string;
  /** How many figures the worksheet states. */
  figures: number;
  differences: WorksheetDifference[];
}

export function runWorksheet(product: ProductCatalog, worksheet: Worksheet): WorksheetRun {
  const run: WorksheetRun = { file: worksheet.file, name: worksheet.name, figures: 0, differences: [] };
  const parsed = quoteInfo().safeParse(worksheet.quote_info);
  if (!parsed.success) {
    run.differences.push({ figure: 'quote_info', expected: 'a quote request create_quote_extended takes', actual: parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ') });
    return run;
  }
  let rating: ReturnType<typeof rateQuoteInMemory>;
  try {
    rating = rateQuoteInMemory(product, parsed.data as QuoteInfo);
  } catch (error) {
    run.differences.push({ figure: 'the quote', expected: 'rated', actual: `refused: ${(error as Error).message}` });
    return run;
  }
  const { rated, propertyIds } = rating;
  const compare = (figure: string, expected: string | undefined, actual: string | undefined) => {
    if (expected === undefined) return;
    run.figures += 1;
    const same = actual !== undefined && (expected === actual || (/^-?\d/.test(expected) && /^-?\d/.test(actual) && sameAmount(expected, actual)));
    if (!same) run.differences.push({ figure, expected, actual: actual ?? '(none)' });
  };
  for (const expected of worksheet.expected.items ?? []) {
    const propertyId = expected.location === undefined ? null : propertyIds[expected.location];
    const where = expected.location === undefined ? expected.name : `${expected.name} at location ${expected.location}`;
    const item = rated.items.find((candidate: RatedLineItem) => candidate.name.toLowerCase() === expected.name.toLowerCase() && candidate.propertyId === (propertyId ?? null));
    if (!item) {
      run.figures += 1;
      run.differences.push({ figure: where, expected: 'on the quote', actual: '(not on the quote)' });
      continue;
    }
    for (const [step, figure] of Object.entries(expected.steps ?? {})) {
      const detail = item.ratingDetails.find((candidate) => candidate.name.toLowerCase() === step.toLowerCase());
      compare(`${where}, step ${step}`, figure, detail ? formatCents(detail.runningTotalCents) : undefined);
    }
    compare(`${where}, annual amount`, expected.annual, formatCents(item.annualPremiumCents + item.annualFeeCents));
    compare(`${where}, territory`, expected.territory, item.territory);
  }
  const totals = rated.totals;
  const expectedTotals = worksheet.expected.totals ?? {};
  compare('annual premium', expectedTotals.annual_premium, formatCents(totals.annualPremiumCents));
  compare('annual fees (taxes and surcharges included)', expectedTotals.annual_fees, formatCents(totals.annualFeeCents));
  compare('annual taxes and surcharges', expectedTotals.annual_surcharges, formatCents(totals.annualChargeCents ?? 0));
  compare('annual total', expectedTotals.annual_total, formatCents(totals.annualTotalCents));
  return run;
}

/** Every worksheet of a package, rated against the product the package makes. */
export function runWorksheets(product: ProductCatalog, worksheets: readonly Worksheet[]): WorksheetRun[] {
  return worksheets.map((worksheet) => runWorksheet(product, worksheet));
}
