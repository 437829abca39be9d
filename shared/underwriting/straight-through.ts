/**
 * Straight-through processing: may the revision be bound without an underwriter? Every
 * rule is catalog data: the answers that refer or decline (`straightThrough` on a
 * question) and the line's underwriting rules (a limit, a risk field or an answer
 * compared with a threshold). A rule whose value is not given does not fail here:
 * rating refuses what it cannot rate.
 */
import type { ProductCatalog, UnderwritingRules } from '../catalog/index.js';
import { compareAmounts, formatCents, isDecimal, sameAmount } from '../platform/money.js';
import { indexCatalog, type CatalogIndex, RatingInputError, type PropertyToRate, type RevisionToRate, resolveLimit } from '../rating/index.js';
import { UnderwritingRuleError, type StpFinding, type StpResult } from './model.js';

type CatalogRule = UnderwritingRules['rules'][number];

/** A value a rule reads, where it was read, and how a message names it. */
interface Observed {
  value: string;
  where: string;
  label: string;
}

export function straightThrough(product: ProductCatalog, revision: RevisionToRate): StpResult {
  const catalog = indexCatalog(product);
  const details = [...answerFindings(catalog, revision), ...catalogRuleFindings(catalog, revision)];
  const decision = details.some((finding) => finding.outcome === 'decline') ? 'decline' : details.length ? 'refer' : 'accept';
  return { success: details.length === 0, decision, details };
}

const propertyName = (property: PropertyToRate) => property.name ?? property.id;

/** Answers the catalog's questions mark as refer or decline, on the revision and on each property. */
function answerFindings(catalog: CatalogIndex, revision: RevisionToRate): StpFinding[] {
  const findings: StpFinding[] = [];
  for (const question of catalog.product.questions) {
    if (!question.straightThrough) continue;
    const places: Array<{ answers: Readonly<Record<string, string>>; where: string | null }> =
      question.level === 'property'
        ? revision.properties.map((property) => ({ answers: property.answers, where: propertyName(property) }))
        : [{ answers: revision.answers, where: null }];
    for (const { answers, where } of places) {
      const answer = answers[question.id]?.trim();
      const outcome = answer ? question.straightThrough[answer.toLowerCase()] : undefined;
      if (!outcome) continue;
      const on = where ? ` on ${where}` : '';
      findings.push({ rule: question.name, outcome, message: `${question.name}: answered "${answer}"${on} (${outcome})` });
    }
  }
  return findings;
}

/** The underwriting rules of the revision's line, each checked on every place it reads. */
function catalogRuleFindings(catalog: CatalogIndex, revision: RevisionToRate): StpFinding[] {
  const lineId = catalog.product.policyTypes.find((type) => type.id === revision.policyTypeId)?.lineId;
  const rules = catalog.product.underwritingRules.filter((set) => set.lineId === lineId).flatMap((set) => set.rules);
  return rules.flatMap((rule) =>
    observe(catalog, revision, rule)
      .filter((observed) => holds(rule, observed.value))
      .map((observed) => ({ rule: rule.name, outcome: rule.outcome, message: `${rule.name}: ${observed.where} has ${observed.label} ${observed.value}` })),
  );
}

/** The values the rule's subject takes on the revision: one per property, or the revision's own. */
function observe(catalog: CatalogIndex, revision: RevisionToRate, rule: CatalogRule): Observed[] {
  const when = rule.when;
  if (typeof when.limitOf === 'string') return limitsOf(catalog, revision, when.limitOf);
  if (typeof when.riskField === 'string') {
    const field = when.riskField;
    return revision.properties.flatMap((property) => {
      const value = property.fields ? (property.fields as Record<string, unknown>)[field] : undefined;
      return typeof value === 'string' || typeof value === 'number' ? [{ value: String(value).trim(), where: propertyName(property), label: field }] : [];
    });
  }
  if (typeof when.answer === 'string') return answersTo(catalog, revision, when.answer);
  throw new UnderwritingRuleError(`Underwriting rule "${rule.name}" names no limitOf, riskField or answer`);
}

function limitsOf(catalog: CatalogIndex, revision: RevisionToRate, itemId: string): Observed[] {
  const definition = catalog.items.get(itemId);
  if (!definition) throw new UnderwritingRuleError(`An underwriting rule reads the limit of item ${itemId}, which the catalog does not have`);
  const places = definition.category === 'policy'
    ? [{ property: null, neighbours: revision.policyItems, where: 'the policy' }]
    : revision.properties.map((property) => ({ property, neighbours: property.items, where: propertyName(property) }));
  return places.flatMap(({ property, neighbours, where }) =>
    neighbours
      .filter((line) => line.itemId === itemId)
      .flatMap((line) => {
        const limit = limitOrNothing(() => resolveLimit(catalog, { line, definition, property, neighbours }));
        return limit === null ? [] : [{ value: formatCents(limit), where, label: `${definition.name} limit` }];
      }),
  );
}

function limitOrNothing(read: () => number | null): number | null {
  try {
    return read();
  } catch (error) {
    if (error instanceof RatingInputError) return null;
    throw error;
  }
}

function answersTo(catalog: CatalogIndex, revision: RevisionToRate, questionId: string): Observed[] {
  const question = catalog.questions.get(questionId);
  const label = question?.name ?? questionId;
  const places = question?.level === 'underwriting'
    ? [{ answers: revision.answers, where: 'the revision' }]
    : revision.properties.map((property) => ({ answers: property.answers, where: propertyName(property) }));
  return places.flatMap(({ answers, where }) => {
    const answer = answers[questionId]?.trim();
    return answer ? [{ value: answer, where, label }] : [];
  });
}

/** Whether the observed value meets the rule's comparison; a number rule never holds on text. */
function holds(rule: CatalogRule, value: string): boolean {
  const when = rule.when;
  const numeric = (threshold: unknown, test: (order: number) => boolean) =>
    isDecimal(value) && isDecimal(threshold) && test(compareAmounts(value, threshold));
  const same = (expected: unknown) =>
    typeof expected === 'string' && (isDecimal(expected) && isDecimal(value) ? sameAmount(expected, value) : expected.trim().toLowerCase() === value.toLowerCase());
  if (when.greaterThan !== undefined) return numeric(when.greaterThan, (order) => order > 0);
  if (when.lessThan !== undefined) return numeric(when.lessThan, (order) => order < 0);
  if (when.atLeast !== undefined) return numeric(when.atLeast, (order) => order >= 0);
  if (when.atMost !== undefined) return numeric(when.atMost, (order) => order <= 0);
  if (Array.isArray(when.in)) return when.in.some(same);
  if (when.equals !== undefined) return same(when.equals);
  throw new UnderwritingRuleError(`Underwriting rule "${rule.name}" has no comparison (greaterThan, lessThan, atLeast, atMost, in, equals)`);
}
