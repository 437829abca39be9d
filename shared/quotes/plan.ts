/**
 * Reading a quote request by names against the catalog: the line, the policy type, the
 * items and the questions, with every problem named by its field path. Pure: no I/O.
 */
import type { ItemDefinition, ProductCatalog, QuestionDefinition } from '../catalog/index.js';
import { addDays } from '../platform/dates.js';
import { BusinessRuleError } from '../platform/errors.js';
import { toCents } from '../platform/money.js';
import type { PlannedItem, QuoteInfo, QuoteItemRequest, QuotePlan } from './model.js';

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** The application date bounds: at most `future` days ahead and `past` days back of today. */
export function dateBoundProblem(effectiveDate: string, today: string, bounds: { future: number; past: number }): string | undefined {
  if (effectiveDate > addDays(today, bounds.future)) return `quote_info.effective_date: may be at most ${bounds.future} days after today (${today})`;
  if (effectiveDate < addDays(today, -bounds.past)) {
    return bounds.past === 0 ? `quote_info.effective_date: may not be before today (${today})` : `quote_info.effective_date: may be at most ${bounds.past} days before today (${today})`;
  }
  return undefined;
}

function findQuestion(product: ProductCatalog, key: string): QuestionDefinition | undefined {
  return product.questions.find((question) => question.id === key || same(question.name, key));
}

/** Per-property answers found in an item's `questions`, by question id; other keys are left for `identifier`. */
function propertyAnswers(product: ProductCatalog, item: QuoteItemRequest, field: string, problems: string[]): Record<string, string> {
  const answers: Record<string, string> = {};
  for (const [key, raw] of Object.entries(item.questions ?? {})) {
    const question = findQuestion(product, key);
    if (!question || question.level !== 'property') continue;
    const answer = String(Array.isArray(raw) ? raw[0] : raw).trim();
    if (question.options && !question.options.some((option) => same(option, answer))) {
      problems.push(`${field}.questions.${key}: ${question.name} must be one of ${question.options.join(', ')}`);
    } else {
      answers[question.id] = question.options?.find((option) => same(option, answer)) ?? answer;
    }
  }
  return answers;
}

function amount(value: string | number | undefined, field: string, problems: string[]): number | null {
  if (value === undefined) return null;
  try {
    return toCents(value);
  } catch {
    problems.push(`${field}: must be an amount of money`);
    return null;
  }
}

function planItem(product: ProductCatalog, policyTypeId: string, request: QuoteItemRequest, field: string, problems: string[], locations: number) {
  const definition: ItemDefinition | undefined = product.items.find((item) => same(item.name, request.name));
  if (!definition) return void problems.push(`${field}.name: no item named ${JSON.stringify(request.name.slice(0, 100))}`);
  if (!definition.availability[policyTypeId]) return void problems.push(`${field}.name: ${definition.name} is not offered on this policy type`);
  if (request.location !== undefined && (request.location < 0 || request.location >= locations)) {
    return void problems.push(`${field}.location: there is no location ${request.location}`);
  }
  const limitCents = amount(request.limit, `${field}.limit`, problems);
  const deductibleCents = amount(request.deductible, `${field}.deductible`, problems);
  const places = definition.category === 'policy' ? [null] : request.location !== undefined ? [request.location] : [...Array(locations).keys()];
  return places.map((location): PlannedItem => ({ itemId: definition.id, location, limitCents, deductibleCents, request }));
}

/** The quote's plan, or a BusinessRuleError listing every problem of the request. */
export function planQuote(product: ProductCatalog, info: QuoteInfo): QuotePlan {
  const problems: string[] = [];
  const line = product.lines.find((candidate) => same(candidate.name, info.line_name));
  if (!line) problems.push(`quote_info.line_name: no line named ${JSON.stringify(info.line_name.slice(0, 100))}`);
  const policyType = product.policyTypes.find((type) => same(type.name, info.policy_type_name) && (!line || type.lineId === line.id));
  if (!policyType) problems.push(`quote_info.policy_type_name: no policy type named ${JSON.stringify(info.policy_type_name.slice(0, 100))}${line ? ` in ${line.name}` : ''}`);
  if (info.locations.length === 0) problems.push('quote_info.locations: a quote needs at least one location');
  if (!line || !policyType) throw new BusinessRuleError(problems);

  const answersByLocation = info.locations.map(() => ({}) as Record<string, string>);
  const items: PlannedItem[] = [];
  info.items.forEach((request, index) => {
    const field = `quote_info.items.${index}`;
    const answers = propertyAnswers(product, request, field, problems);
    const targets = request.location !== undefined ? [request.location] : [...answersByLocation.keys()];
    for (const target of targets) if (answersByLocation[target]) Object.assign(answersByLocation[target], answers);
    items.push(...(planItem(product, policyType.id, request, field, problems, info.locations.length) ?? []));
  });
  const primaryIndex = Math.max(0, info.locations.findIndex((location) => location.primary === true));
  const underwritingAnswers = (info.underwriting_questions ?? []).map((answer) => ({ questionId: answer.questionId, yesNoAnswer: answer.yesNoAnswer, explanation: answer.explanation ?? '' }));
  if (problems.length) throw new BusinessRuleError(problems);
  return {
    policyTypeId: policyType.id,
    lineId: line.id,
    effectiveDate: info.effective_date,
    inceptionDate: info.inception_date ?? info.effective_date,
    locations: info.locations.map((location, index) => ({ location, primary: index === primaryIndex, answers: answersByLocation[index] })),
    items,
    underwritingAnswers,
  };
}
