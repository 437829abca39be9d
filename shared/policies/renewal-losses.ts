/**
 * A renewal's underwriting answers after the policy's own claims: a question the product marks
 * `answeredByClaims` ("Losses in past 3 years") is answered by the claims whose loss date falls
 * in its years before the renewal term's effective date, naming them in the explanation. A
 * renewal with no such claim keeps the answer it copied (which may speak of losses elsewhere).
 * The claims are given (the renew move reads them from the claims area); pure, no I/O.
 */
import type { ProductCatalog } from '../catalog/index.js';
import { addMonths } from '../platform/dates.js';
import type { UnderwritingAnswer } from './model.js';

/** A claim of the policy as a renewal reads it. */
export interface RenewalLoss {
  claimNumber: string;
  lossDate: string;
}

/** What the claims answered: the question, the answer given, the claims that gave it. */
export interface AnswerFromClaims {
  questionId: string;
  question: string;
  answer: string;
  claims: RenewalLoss[];
}

/** The losses of `losses` in the `years` before `effectiveDate`: on or after the day `years` earlier, before the effective date. */
export function lossesWithin(losses: readonly RenewalLoss[], effectiveDate: string, years: number): RenewalLoss[] {
  const since = addMonths(effectiveDate, -12 * years);
  return losses.filter((loss) => loss.lossDate >= since && loss.lossDate < effectiveDate).sort((a, b) => a.lossDate.localeCompare(b.lossDate) || a.claimNumber.localeCompare(b.claimNumber));
}

/** How an explanation names the claims: `CL-2025-1 (loss date 2025-03-02), CL-2025-4 (loss date 2025-06-10)`. */
export const claimsExplained = (claims: readonly RenewalLoss[]) => claims.map((claim) => `${claim.claimNumber} (loss date ${claim.lossDate})`).join(', ');

export function answersAfterClaims(
  product: Pick<ProductCatalog, 'questions'>,
  answers: readonly UnderwritingAnswer[],
  losses: readonly RenewalLoss[],
  effectiveDate: string,
): { answers: UnderwritingAnswer[]; fromClaims: AnswerFromClaims[] } {
  const fromClaims: AnswerFromClaims[] = [];
  let result = [...answers];
  for (const question of product.questions ?? []) {
    if (question.level !== 'underwriting' || !question.answeredByClaims) continue;
    const claims = lossesWithin(losses, effectiveDate, question.answeredByClaims.years);
    if (claims.length === 0) continue;
    const answer: UnderwritingAnswer = { questionId: question.id, yesNoAnswer: question.answeredByClaims.answer, explanation: claimsExplained(claims) };
    result = result.some((given) => given.questionId === question.id) ? result.map((given) => (given.questionId === question.id ? answer : given)) : [...result, answer];
    fromClaims.push({ questionId: question.id, question: question.name, answer: answer.yesNoAnswer, claims });
  }
  return { answers: result, fromClaims };
}
