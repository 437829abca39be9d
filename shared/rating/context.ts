/** Where a step is evaluated: the catalog's lookups, the revision, the item and its neighbours. */
import type { ItemDefinition, ProductCatalog, QuestionDefinition, ResolvedFiling } from '../catalog/index.js';
import type { Cents } from '../platform/money.js';
import { RatingInputError, type LineItemToRate, type PropertyToRate, type RevisionToRate } from './model.js';

export interface CatalogIndex {
  product: ProductCatalog;
  items: ReadonlyMap<string, ItemDefinition>;
  questions: ReadonlyMap<string, QuestionDefinition>;
  /** The state filing rating reads (territories); absent when rating outside a state's view. */
  filing?: ResolvedFiling;
}

export function indexCatalog(product: ProductCatalog, filing?: ResolvedFiling): CatalogIndex {
  return {
    product,
    ...(filing ? { filing } : {}),
    items: new Map(product.items.map((item) => [item.id, item])),
    questions: new Map(product.questions.map((question) => [question.id, question])),
  };
}

/** A line item placed on its property (or on the revision) with the items beside it. */
export interface PlacedItem {
  line: LineItemToRate;
  definition: ItemDefinition;
  /** Null for a policy-level item. */
  property: PropertyToRate | null;
  /** The items of the same property, or the policy items for a policy-level item (the item included). */
  neighbours: readonly LineItemToRate[];
}

/** The annual premium of an item already rated, as adjustments read it. */
export interface RatedPremium {
  itemId: string;
  propertyId: string | null;
  category: ItemDefinition['category'];
  type: ItemDefinition['type'];
  annualPremiumCents: Cents;
}

export interface StepContext {
  catalog: CatalogIndex;
  revision: RevisionToRate;
  placed: PlacedItem;
  /** Premiums of the items rated before this one (the evaluation order puts coverages first). */
  rated: readonly RatedPremium[];
}

/** A `RatingInputError` that names the property and the item being rated. */
export function missingInput(
  placed: { property: PropertyToRate | null; line: LineItemToRate; definition?: Pick<ItemDefinition, 'name'> },
  missing: string,
): RatingInputError {
  return new RatingInputError({
    propertyId: placed.property?.id ?? null,
    propertyName: placed.property ? placed.property.name ?? placed.property.id : null,
    itemId: placed.line.id,
    itemName: placed.definition?.name ?? null,
    missing,
  });
}

/** A question's name for messages; its id when the catalog does not know it. */
export function questionName(catalog: CatalogIndex, questionId: string): string {
  return catalog.questions.get(questionId)?.name ?? questionId;
}

/**
 * The answer a rule reads: a property item reads its property's answers first, then the
 * revision's; a policy item reads the revision's. Undefined when unanswered.
 */
export function answerFor(revision: RevisionToRate, property: PropertyToRate | null, questionId: string): string | undefined {
  const given = property?.answers[questionId] ?? revision.answers[questionId];
  if (given === undefined || given === null) return undefined;
  const text = String(given).trim();
  return text === '' ? undefined : text;
}
