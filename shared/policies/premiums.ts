/**
 * Premiums of items: what a change of limits, deductibles or manual premiums does to a
 * line item (the per-item rating change), and which premiums a change makes stale. No I/O.
 */
import type { ItemDefinition, ProductCatalog } from '../catalog/index.js';
import { toCents, type Cents } from '../platform/money.js';
import type { AmountInput, ItemRatingChange, LineItemRecord, RatingItemChange, RatingPlan, RevisionRecord, RevisionSnapshot } from './model.js';
import { deductibleProblem, findItemDefinition, limitProblem, withDefaultLimits } from './structure.js';

/** Premium totals of a revision go back to zero whenever something they depend on changes. */
export const UNRATED_TOTALS: Partial<RevisionRecord> = { annualPremiumCents: 0, writtenPremiumCents: 0, annualFeeCents: 0, writtenFeeCents: 0 };

/**
 * The underwriting questions whose answers the product's rating reads (a step's factor or
 * condition names the question), in any rate version: a change of any other answer cannot move
 * the premium.
 */
export function questionsReadByRating(product: Pick<ProductCatalog, 'items' | 'questions' | 'rateVersions'>): Set<string> {
  const known = new Set(product.questions.map((question) => question.id));
  const read = new Set<string>();
  const walk = (value: unknown): void => {
    if (typeof value === 'string') {
      if (known.has(value)) read.add(value);
    } else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  for (const item of product.items) walk(item.rating);
  for (const version of product.rateVersions ?? []) walk(version.items);
  return read;
}

/** Whether every item that rating prices has its figures, and the revision its totals (else it must be rated before it goes on). */
export function isRated(snapshot: Pick<RevisionSnapshot, 'header' | 'items'>): boolean {
  if (snapshot.header.annualPremiumCents === 0 && snapshot.header.annualFeeCents === 0) return false;
  return snapshot.items.every((item) => item.persistStatus === 'rejected' || item.type === 'nonRate' || item.manual || item.premiumSource === 'external' || item.annualPremiumCents !== null || item.annualFeeCents !== null);
}

/** Clears what rating computed on an item; premiums set by hand or by an external rater stay. */
export function withoutCalculatedPremium(item: LineItemRecord): LineItemRecord {
  if (item.manual || item.premiumSource === 'external') return item;
  const { ratingBasis: _basis, ...rest } = item;
  return { ...rest, writtenPremiumCents: null, annualPremiumCents: null, writtenFeeCents: null, annualFeeCents: null, ratingDetails: {}, premiumSource: null };
}

/** Items whose calculated premium must go, changed; items with nothing to clear are left out. */
export function resetPremiums(items: readonly LineItemRecord[]): LineItemRecord[] {
  return items
    .map((item) => ({ before: item, after: withoutCalculatedPremium(item) }))
    .filter(({ before, after }) => before !== after && hasCalculated(before))
    .map(({ after }) => after);
}

function hasCalculated(item: LineItemRecord): boolean {
  return (
    item.annualPremiumCents !== null ||
    item.writtenPremiumCents !== null ||
    item.annualFeeCents !== null ||
    item.writtenFeeCents !== null ||
    Object.keys(item.ratingDetails).length > 0
  );
}

const cents = (value: AmountInput): Cents | null | undefined => (value === undefined ? undefined : value === null ? null : toCents(value));

/**
 * The per-item rating change: limit and deductible (checked against the item's rules),
 * the manual flag and a manual premium (only on a manually rated item; leaving manual
 * rating drops it), the loss exposure group and the builder object with its answers.
 */
export function applyRatingChange(original: LineItemRecord, change: RatingItemChange, product: ProductCatalog, field: string): ItemRatingChange {
  const definition = findItemDefinition(product, original.itemId);
  const item: LineItemRecord = { ...original };
  const problems: string[] = [];
  const note = (problem: string | undefined) => problem && problems.push(problem);
  if (change.limit !== undefined) {
    const limit = cents(change.limit)!;
    if (definition) note(limitProblem(definition, limit, `${field}.limit`));
    item.limitCents = limit;
    item.limitIsDefault = limit === null && typeof definition?.limit?.default === 'object';
  }
  if (change.deductible !== undefined) {
    const deductible = cents(change.deductible)!;
    if (definition) note(deductibleProblem(definition, deductible, `${field}.deductible`));
    item.deductibleCents = deductible;
  }
  if (change.manual !== undefined) item.manual = change.manual;
  if (change.annual_premium !== undefined) note(applyManualPremium(item, change.annual_premium, field));
  if (change.manual === false && original.manual) Object.assign(item, { annualPremiumCents: null, writtenPremiumCents: null, premiumSource: null });
  if (change.loss_exposure_group !== undefined) item.lossExposureGroup = change.loss_exposure_group;
  let answers: Record<string, string> | undefined;
  if (change.builder_obj !== undefined) {
    item.builderObj = change.builder_obj ?? {};
    answers = propertyAnswers(product, change.builder_obj?.questions, `${field}.builder_obj.questions`, problems);
  }
  return { item, problems, ...(answers && item.riskId ? { propertyAnswers: answers } : {}) };
}

/** Sets a manual premium on `item` (in place), or answers why it cannot. */
function applyManualPremium(item: LineItemRecord, annualPremium: AmountInput, field: string): string | undefined {
  if (!item.manual && annualPremium !== null) return `${field}.annual_premium: only a manually rated item takes an annual premium; set manual true with it`;
  const premium = cents(annualPremium)!;
  Object.assign(item, { annualPremiumCents: premium, writtenPremiumCents: premium, premiumSource: premium === null ? null : 'manual', ratingDetails: {} });
  delete item.ratingBasis;
  return undefined;
}

/** Answers of per-property questions found in a builder_obj's `questions` ({questionId: [answer]}). */
function propertyAnswers(product: ProductCatalog, questions: unknown, field: string, problems: string[]): Record<string, string> | undefined {
  if (!questions || typeof questions !== 'object') return undefined;
  const answers: Record<string, string> = {};
  for (const [questionId, value] of Object.entries(questions as Record<string, unknown>)) {
    const question = product.questions.find((candidate) => candidate.id === questionId && candidate.level === 'property');
    if (!question) continue;
    const answer = String(Array.isArray(value) ? value[0] : value);
    if (question.options && !question.options.includes(answer)) {
      problems.push(`${field}.${questionId}: ${question.name} must be one of ${question.options.join(', ')}`);
      continue;
    }
    answers[questionId] = answer;
  }
  return answers;
}

/** The line item a change names within scope: by line item id, else by catalog item id when only one matches. */
function namedItem(items: readonly LineItemRecord[], id: string, field: string, where: string): LineItemRecord | string {
  const byId = items.filter((item) => item.id === id);
  const matches = byId.length ? byId : items.filter((item) => item.itemId === id);
  if (matches.length === 1) return matches[0];
  return matches.length ? `${field}.id: ${id} names several items; give the line item id` : `${field}.id: line item ${id} was not found ${where}`;
}

/**
 * Applies every item change of update_rating_information to a revision (within one property
 * when `riskId` is given), moves the limits that follow another limit (10% of the Dwelling...)
 * and, when asked, clears the calculated premiums of what changed.
 */
export function planRatingChanges(
  snapshot: RevisionSnapshot,
  product: ProductCatalog,
  changes: readonly RatingItemChange[],
  scope: { riskId?: string; resetPremiums: boolean },
): RatingPlan {
  const inScope = snapshot.items.filter((item) => (scope.riskId ? item.riskId === scope.riskId : true));
  const where = scope.riskId ? 'on the property' : 'on the revision';
  const changed = new Map<string, LineItemRecord>();
  const answersByRisk = new Map<string, Record<string, string>>();
  const problems: string[] = [];
  changes.forEach((change, index) => {
    const named = namedItem(inScope, change.id, `items.${index}`, where);
    if (typeof named === 'string') return void problems.push(named);
    const result = applyRatingChange(changed.get(named.id) ?? named, change, product, `items.${index}`);
    problems.push(...result.problems);
    if (result.propertyAnswers) answersByRisk.set(result.item.riskId!, { ...(answersByRisk.get(result.item.riskId!) ?? {}), ...result.propertyAnswers });
    changed.set(result.item.id, result.item);
  });
  const merged = snapshot.items.map((item) => changed.get(item.id) ?? item);
  withDefaultLimits(merged, product).forEach((item, index) => {
    if (item !== merged[index]) changed.set(item.id, item);
  });
  const items = [...changed.values()];
  return { items: scope.resetPremiums ? items.map(withoutCalculatedPremium) : items, answersByRisk, problems };
}

/** Whether an item definition prices as a fee rather than a premium. */
export function isFee(definition: Pick<ItemDefinition, 'type'>): boolean {
  return definition.type === 'fee';
}
