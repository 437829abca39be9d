/**
 * One rating step: the running total after it, rounded half-up to the cent. Amounts add
 * to the running total, factors multiply it, `atLeast`/`atMost` bound it.
 */
import type { RatingStep } from '../catalog/index.js';
import { multiply, percentOf, perThousand, sum, toCents, type Cents } from '../platform/money.js';
import { answerFor, missingInput, questionName, type StepContext } from './context.js';
import { RatingRuleError } from './model.js';
import { resolveReference } from './references.js';
import { rowFor } from './tables.js';

type StepOf<Op extends RatingStep['op']> = Extract<RatingStep, { op: Op }>;

/** The running total after a step, and what it read when a reader of the trace needs it (the territory, the answer a condition read). */
export function applyStep(context: StepContext, step: RatingStep, running: Cents): { cents: Cents; basis?: string } {
  if (step.op === 'territory') {
    const territory = territoryOf(context, step.name);
    return { cents: multiply(running, territory.factor), basis: territory.territory };
  }
  const cents = amountAfter(context, step, running);
  return step.op === 'percentOfPremiums' && step.when ? { cents, basis: conditionBasis(context, step.when.answer) } : { cents };
}

/** What a condition read, as the trace shows it: `Losses in past 3 years: yes (CL-2025-1 (loss date 2025-03-02))`, or `...: unanswered`. */
function conditionBasis(context: StepContext, questionId: string): string {
  const answer = answerFor(context.revision, context.placed.property, questionId);
  const fromProperty = context.placed.property?.answers[questionId] !== undefined;
  const note = fromProperty ? undefined : context.revision.answerNotes?.[questionId]?.trim();
  return `${questionName(context.catalog, questionId)}: ${answer ?? 'unanswered'}${note ? ` (${note})` : ''}`;
}

function amountAfter(context: StepContext, step: RatingStep, running: Cents): Cents {
  switch (step.op) {
    case 'perThousand':
      return running + perThousand(resolveReference(context.catalog, context.placed, step.of), step.rate);
    case 'perThousandExcess':
      return running + perThousandExcess(context, step);
    case 'factor':
      return multiply(running, tableEntry(context, step, 'factor'));
    case 'byOption':
      return running + toCents(tableEntry(context, step, 'amount'));
    case 'atLeast':
      return Math.max(running, toCents(step.amount));
    case 'atMost':
      return Math.min(running, toCents(step.amount));
    case 'flat':
      return running + toCents(step.amount);
    case 'percentOfPremiums':
      return running + percentOfPremiums(context, step);
    case 'percentOfPolicyPremium':
      return running + percentOf(sum(context.rated.filter((item) => item.type !== 'fee').map((item) => item.annualPremiumCents)), step.percent);
    default:
      throw new RatingRuleError(`Rating step ${JSON.stringify((step as { name?: string }).name)} has an unknown op ${JSON.stringify((step as { op?: string }).op)}`);
  }
}

/**
 * The rate per thousand of the part of a value above another: (of − over) / 1000 × rate.
 * Below `over` the result is a credit; the product's data floors it with its own step.
 */
function perThousandExcess(context: StepContext, step: StepOf<'perThousandExcess'>): Cents {
  const of = resolveReference(context.catalog, context.placed, step.of);
  const over = resolveReference(context.catalog, context.placed, step.over);
  return perThousand(of - over, step.rate);
}

function tableEntry(context: StepContext, step: StepOf<'factor' | 'byOption'>, column: 'factor' | 'amount'): string {
  const row = rowFor(context, step.name, step.by, step.table);
  const entry = row[column];
  if (entry === undefined) throw new RatingRuleError(`A row of the ${step.name} table has no ${column}`);
  return entry;
}

/**
 * A percent of the annual premiums of other items of a category and type, on the same
 * property or on every property. A condition on an unanswered question does not hold:
 * no answer earns no discount and no surcharge.
 */
function percentOfPremiums(context: StepContext, step: StepOf<'percentOfPremiums'>): Cents {
  const { revision, placed, rated } = context;
  if (step.when) {
    const answer = answerFor(revision, placed.property, step.when.answer);
    if (answer === undefined || answer.toLowerCase() !== step.when.equals.trim().toLowerCase()) return 0;
  }
  const propertyId = placed.property?.id ?? null;
  const premiums = rated
    .filter((item) => item.category === step.of.category && item.type === step.of.type)
    .filter((item) => step.of.scope === 'allProperties' || item.propertyId === propertyId)
    .map((item) => item.annualPremiumCents);
  return percentOf(sum(premiums), step.percent);
}

/**
 * The territory of the property from its state filing's table: its ZIP's row, else its
 * county's, else the state's default. A property the table does not place is a rating input
 * problem naming the state, the county and the ZIP.
 */
function territoryOf(context: StepContext, stepName: string): { territory: string; factor: string } {
  const { placed, catalog } = context;
  const table = catalog.filing?.territories;
  const location = placed.property?.location ?? {};
  const zip = location.zip?.trim().slice(0, 5);
  const county = location.county?.trim().toLowerCase();
  const byZip = zip ? table?.byZip?.find((row) => row.zip === zip) : undefined;
  const byCounty = county ? table?.byCounty?.find((row) => row.county.trim().toLowerCase() === county) : undefined;
  const found = byZip ?? byCounty ?? table?.default;
  if (!found) {
    const where = [location.county ? `county ${location.county}` : null, zip ? `ZIP ${zip}` : null].filter(Boolean).join(', ') || 'no county or ZIP';
    throw missingInput(placed, `${stepName} has no territory for ${where} in ${catalog.filing?.stateName ?? 'the state'}`);
  }
  return { territory: found.territory, factor: found.factor };
}
