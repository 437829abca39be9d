/**
 * One rating step: the running total after it, rounded half-up to the cent. Amounts add
 * to the running total, factors multiply it, `atLeast`/`atMost` bound it.
 */
import type { RatingStep } from '../catalog/index.js';
import { multiply, percentOf, perThousand, sum, toCents, type Cents } from '../platform/money.js';
import { answerFor, type StepContext } from './context.js';
import { RatingRuleError } from './model.js';
import { resolveReference } from './references.js';
import { rowFor } from './tables.js';

type StepOf<Op extends RatingStep['op']> = Extract<RatingStep, { op: Op }>;

export function applyStep(context: StepContext, step: RatingStep, running: Cents): Cents {
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
