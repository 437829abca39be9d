/**
 * A quote rated by another system (create_policy_from_externalquote): its properties,
 * its items with their limits, deductibles and premiums, and its stated totals. The
 * premiums it states are kept, never recalculated. No I/O: ids come from `newId`.
 */
import type { ProductCatalog } from '../catalog/index.js';
import { BusinessRuleError } from '../platform/errors.js';
import { toCents, type Cents } from '../platform/money.js';
import type { AmountInput, ExternalItem, ExternalQuoteParts, ExternalRisk, LineItemRecord, Placement, PolicyDraft, RiskRecord, SubLineRecord } from './model.js';
import { isFee } from './premiums.js';
import { findItemDefinition, newLineItem } from './structure.js';

const ADDRESS_FIELDS = ['address_line1', 'address_line2', 'address_city', 'address_state', 'address_zip', 'year_built', 'flood_zone_code', 'distance_to_coast', 'property_val', 'gross_area', 'stories', 'type'] as const;

const given = (value: unknown) => value !== undefined && value !== null && value !== '';

/** A new property filled from a quote's risk: its address fields (top level or under `fields`), name, position and answers. */
export function externalRisk(risk: RiskRecord, quoteRisk: ExternalRisk, product: ProductCatalog): RiskRecord {
  const source: Record<string, unknown> = { ...(quoteRisk.fields ?? {}), ...quoteRisk };
  const next: RiskRecord = { ...risk };
  for (const field of ADDRESS_FIELDS) {
    if (given(source[field])) (next as unknown as Record<string, unknown>)[field] = String(source[field]);
  }
  if (typeof quoteRisk.name === 'string' && quoteRisk.name) next.name = quoteRisk.name;
  if (typeof source.latitude === 'number') next.latitude = source.latitude;
  if (typeof source.longitude === 'number') next.longitude = source.longitude;
  const answers: Record<string, string> = {};
  for (const question of product.questions.filter((candidate) => candidate.level === 'property')) {
    // Answers are keyed by question id or by question name.
    const value = quoteRisk.questions?.[question.id] ?? quoteRisk.questions?.[question.name] ?? source[question.id] ?? source[question.name];
    if (given(value)) answers[question.id] = String(Array.isArray(value) ? value[0] : value);
  }
  next.questions = answers;
  next.addressAccuracy = next.address_zip ? 'fair' : 'poor';
  return next;
}

/** An amount of the quote in cents; null when not given. */
export function amountOrNull(value: AmountInput, field: string): Cents | null {
  if (!given(value)) return null;
  try {
    return toCents(value as string | number);
  } catch {
    throw new BusinessRuleError(`${field}: must be a decimal amount`);
  }
}

function definitionOf(product: ProductCatalog, quoteItem: ExternalItem, field: string, policyTypeId: string) {
  const key = quoteItem.item_id ?? quoteItem.id;
  const definition = key
    ? findItemDefinition(product, key)
    : product.items.find((candidate) => candidate.name.toLowerCase() === String(quoteItem.name ?? '').trim().toLowerCase());
  if (!definition) throw new BusinessRuleError(`${field}: ${key ?? quoteItem.name ?? 'the item'} is not an item of the catalog`);
  if (!definition.availability[policyTypeId]) throw new BusinessRuleError(`${field}: ${definition.name} is not offered on this policy type`);
  return definition;
}

/** The quote's figures of one item written onto its line item. */
function withQuotedFigures(line: LineItemRecord, quoteItem: ExternalItem, fee: boolean, field: string): LineItemRecord {
  const item = { ...line };
  const limit = amountOrNull(quoteItem.limit, `${field}.limit`);
  if (limit !== null) Object.assign(item, { limitCents: limit, limitIsDefault: false });
  const deductible = amountOrNull(quoteItem.deductible, `${field}.deductible`);
  if (deductible !== null) item.deductibleCents = deductible;
  const annual = amountOrNull(quoteItem.annual_premium ?? quoteItem.premium, `${field}.premium`);
  const written = amountOrNull(quoteItem.written_premium, `${field}.written_premium`) ?? annual;
  if (annual !== null) {
    Object.assign(
      item,
      fee ? { annualFeeCents: annual, writtenFeeCents: written, premiumSource: 'external' } : { annualPremiumCents: annual, writtenPremiumCents: written, premiumSource: 'external' },
    );
  }
  return item;
}

/** Sets limits, deductibles and the given premiums of the quote's items, adding optional ones. */
export function applyExternalItems(
  product: ProductCatalog,
  items: readonly LineItemRecord[],
  quoteItems: readonly ExternalItem[],
  placement: Placement,
  subLines: readonly SubLineRecord[],
  path: string,
  newId: () => string,
): LineItemRecord[] {
  const result = [...items];
  quoteItems.forEach((quoteItem, index) => {
    const field = `${path}.${index}`;
    const definition = definitionOf(product, quoteItem, field, placement.policyTypeId);
    const riskId = definition.category === 'property' ? placement.riskId : null;
    if (definition.category === 'property' && !riskId) throw new BusinessRuleError(`${field}: ${definition.name} is a property item; list it under its risk`);
    let position = result.findIndex((item) => item.itemId === definition.id && item.riskId === riskId);
    if (position < 0) {
      const subLine = subLines.find((candidate) => candidate.subLineId === definition.subLineId && candidate.riskId === riskId);
      if (!subLine) throw new BusinessRuleError(`${field}: the sub line of ${definition.name} is not on the policy`);
      result.push(newLineItem(definition, { ...placement, riskId, subLineInstanceId: subLine.id }, newId()));
      position = result.length - 1;
    }
    result[position] = withQuotedFigures(result[position], quoteItem, isFee(definition), field);
  });
  return result;
}

/**
 * The revision's totals from the quote: the stated figures, else the sum of its items. A
 * stated annual figure without a written one is a full term: written equals annual.
 */
export function externalTotals(external: ExternalQuoteParts, items: readonly LineItemRecord[]): PolicyDraft['totals'] {
  const sumOf = (pick: (item: LineItemRecord) => Cents | null) => items.reduce((total, item) => total + (pick(item) ?? 0), 0);
  const stated = external.premiums;
  const read = (value: AmountInput, field: string, fallback: Cents) => amountOrNull(value, `quote.premiums.${field}`) ?? fallback;
  const writtenFallback = (statedAnnual: unknown, annual: Cents, itemsWritten: Cents) => (given(statedAnnual) ? annual : itemsWritten || annual);
  const annualPremium = read(stated.annual_premium, 'annual_premium', sumOf((item) => item.annualPremiumCents));
  const annualFee = read(stated.annual_fee, 'annual_fee', sumOf((item) => item.annualFeeCents));
  return {
    annualPremiumCents: annualPremium,
    writtenPremiumCents: read(stated.written_premium, 'written_premium', writtenFallback(stated.annual_premium, annualPremium, sumOf((item) => item.writtenPremiumCents))),
    annualFeeCents: annualFee,
    writtenFeeCents: read(stated.written_fee, 'written_fee', writtenFallback(stated.annual_fee, annualFee, sumOf((item) => item.writtenFeeCents))),
    builderPending: false,
  };
}
