/**
 * Limits and the values rules refer to: the limit of the item itself, of another item of
 * the same property, or a percent of one; an item without a limit of its own takes the
 * catalog's default, which may itself refer to another item's limit.
 */
import type { ItemDefinition, ValueReference } from '../catalog/index.js';
import { percentOf, toCents, type Cents } from '../platform/money.js';
import { missingInput, type CatalogIndex, type PlacedItem } from './context.js';
import { RatingRuleError } from './model.js';

type Placement = Pick<PlacedItem, 'line' | 'definition' | 'property' | 'neighbours'>;

/**
 * The limit the item is rated with: a locked limit follows its default; otherwise the
 * limit given, else the default. Null when the item has neither (not every item needs one).
 */
export function resolveLimit(catalog: CatalogIndex, placed: Placement, visiting: ReadonlySet<string> = new Set()): Cents | null {
  const rule = placed.definition.limit;
  const given = placed.line.limitCents;
  const followsDefault = rule?.locked === true && rule.default !== undefined;
  if (given !== undefined && given !== null && !followsDefault) return given;
  if (rule?.default === undefined) return null;
  if (typeof rule.default === 'string') return toCents(rule.default);
  if (visiting.has(placed.definition.id)) {
    throw new RatingRuleError(`The default limit of ${placed.definition.name} refers back to itself`);
  }
  return resolveReference(catalog, placed, rule.default, new Set([...visiting, placed.definition.id]));
}

/** The deductible the item is rated with: the one given, else the catalog default; null when none. */
export function resolveDeductible(placed: Pick<PlacedItem, 'line' | 'definition'>): Cents | null {
  const given = placed.line.deductibleCents;
  if (given !== undefined && given !== null) return given;
  const fallback = placed.definition.deductible?.default;
  return fallback === undefined ? null : toCents(fallback);
}

/** The amount a reference names, in cents; a missing limit is a `RatingInputError`. */
export function resolveReference(
  catalog: CatalogIndex,
  placed: Placement,
  reference: ValueReference,
  visiting: ReadonlySet<string> = new Set(),
): Cents {
  if ('percentOfLimit' in reference) {
    const { item, percent } = reference.percentOfLimit;
    return percentOf(limitOfItem(catalog, placed, item, visiting), percent);
  }
  return limitOfItem(catalog, placed, reference.limitOf, visiting);
}

function limitOfItem(catalog: CatalogIndex, placed: Placement, itemId: string, visiting: ReadonlySet<string>): Cents {
  if (itemId === 'self' || itemId === placed.definition.id) {
    const own = resolveLimit(catalog, placed, visiting);
    if (own === null) throw missingInput(placed, 'its limit');
    return own;
  }
  const definition = referencedDefinition(catalog, placed.definition, itemId);
  const line = placed.neighbours.find((candidate) => candidate.itemId === itemId);
  const where = placed.property ? 'the property' : 'the policy';
  if (!line) throw missingInput(placed, `the limit of ${definition.name}, which is not on ${where}`);
  const limit = resolveLimit(catalog, { ...placed, line, definition }, visiting);
  if (limit === null) throw missingInput(placed, `the limit of ${definition.name}, which has none`);
  return limit;
}

function referencedDefinition(catalog: CatalogIndex, from: ItemDefinition, itemId: string): ItemDefinition {
  const definition = catalog.items.get(itemId);
  if (!definition) throw new RatingRuleError(`${from.name} refers to item ${itemId}, which the catalog does not have`);
  return definition;
}
