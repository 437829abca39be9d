/** Underwriting answers and options of a revision. No I/O. */
import type { ProductCatalog } from '../catalog/index.js';
import { BusinessRuleError } from '../platform/errors.js';
import type { UnderwritingAnswer, UnderwritingOption } from './model.js';

/**
 * Checks answers against the catalog's underwriting questions and merges them into
 * `existing`: an answered question replaces its earlier answer, others stay.
 */
export function validateUnderwritingAnswers(
  product: ProductCatalog,
  answers: readonly UnderwritingAnswer[],
  existing: readonly UnderwritingAnswer[],
  field = 'underwriting_questions',
): UnderwritingAnswer[] {
  const problems: string[] = [];
  answers.forEach((answer, index) => {
    const question = product.questions.find((candidate) => candidate.id === answer.questionId && candidate.level === 'underwriting');
    if (!question) {
      problems.push(`${field}.${index}.questionId: ${answer.questionId} is not an underwriting question of the catalog`);
      return;
    }
    if (question.options && !question.options.includes(answer.yesNoAnswer)) {
      problems.push(`${field}.${index}.yesNoAnswer: must be one of ${question.options.join(', ')}`);
    }
  });
  if (problems.length) throw new BusinessRuleError(problems);
  const merged = new Map(existing.map((answer) => [answer.questionId, answer]));
  for (const answer of answers) merged.set(answer.questionId, { questionId: answer.questionId, yesNoAnswer: answer.yesNoAnswer, explanation: answer.explanation });
  return [...merged.values()];
}

/** Merges options by optionId: a given option replaces its earlier answer. */
export function mergeUnderwritingOptions(existing: readonly UnderwritingOption[], given: readonly UnderwritingOption[]): UnderwritingOption[] {
  const merged = new Map(existing.map((option) => [option.optionId, option]));
  for (const option of given) merged.set(option.optionId, { optionId: option.optionId, answer: option.answer ?? null });
  return [...merged.values()];
}
