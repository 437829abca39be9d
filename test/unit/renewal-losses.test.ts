/**
 * A renewal's "Losses in past 3 years" answered by the policy's claims of the three years before
 * its effective date (shared/policies/renewal-losses.ts), and the question's package data checked.
 */
import { describe, expect, it } from 'vitest';
import { productFromRecords } from '../../shared/catalog/model.js';
import { referenceCatalogRecords } from '../../shared/catalog/reference-data.js';
import { validatePackage } from '../../shared/catalog/package-validation.js';
import { referencePackageDocument } from '../../shared/catalog/reference-package.js';
import { answersAfterClaims, lossesWithin } from '../../shared/policies/renewal-losses.js';

const product = productFromRecords(referenceCatalogRecords());
const LOSSES = 'e29555d3-7101-4947-a3af-a279d8774c09';
const VACANT = '7a49ec9a-64fc-41fd-bf61-55a1e593fa10';
const applied = [
  { questionId: LOSSES, yesNoAnswer: 'no', explanation: '' },
  { questionId: VACANT, yesNoAnswer: 'no', explanation: '' },
];

describe("a renewal's losses", () => {
  it('counts a loss from the day three years before the effective date up to the day before it', () => {
    const losses = [
      { claimNumber: 'CL-2022-9', lossDate: '2022-12-31' },
      { claimNumber: 'CL-2023-1', lossDate: '2023-01-01' },
      { claimNumber: 'CL-2025-7', lossDate: '2025-12-31' },
      { claimNumber: 'CL-2026-1', lossDate: '2026-01-01' },
    ];
    expect(lossesWithin(losses, '2026-01-01', 3).map((loss) => loss.claimNumber)).toEqual(['CL-2023-1', 'CL-2025-7']);
  });

  it('answers "Losses in past 3 years" yes naming the claims, and leaves the other answers as they were', () => {
    const { answers, fromClaims } = answersAfterClaims(product, applied, [{ claimNumber: 'CL-2025-3', lossDate: '2025-03-02' }], '2026-01-01');
    expect(answers).toEqual([
      { questionId: LOSSES, yesNoAnswer: 'yes', explanation: 'CL-2025-3 (loss date 2025-03-02)' },
      { questionId: VACANT, yesNoAnswer: 'no', explanation: '' },
    ]);
    expect(fromClaims).toEqual([{ questionId: LOSSES, question: 'Losses in past 3 years', answer: 'yes', claims: [{ claimNumber: 'CL-2025-3', lossDate: '2025-03-02' }] }]);
  });

  it('keeps the copied answer when no claim falls in the years (a yes about losses elsewhere stays yes)', () => {
    expect(answersAfterClaims(product, applied, [{ claimNumber: 'CL-2021-1', lossDate: '2021-06-01' }], '2026-01-01')).toEqual({ answers: applied, fromClaims: [] });
    const saidYes = [{ questionId: LOSSES, yesNoAnswer: 'yes', explanation: 'A kitchen fire with the prior carrier' }];
    expect(answersAfterClaims(product, saidYes, [], '2026-01-01').answers).toEqual(saidYes);
  });

  it('adds the answer when the revision had none', () => {
    expect(answersAfterClaims(product, [], [{ claimNumber: 'CL-2025-3', lossDate: '2025-03-02' }], '2026-01-01').answers).toEqual([
      { questionId: LOSSES, yesNoAnswer: 'yes', explanation: 'CL-2025-3 (loss date 2025-03-02)' },
    ]);
  });

  it('is refused as package data on a property question, or with an answer the question does not offer', () => {
    const document = referencePackageDocument() as Record<string, any>;
    const questions = structuredClone(document['questions.json']);
    questions.questions[0].answeredByClaims = { years: 3, answer: 'yes' };
    questions.questions[2].answeredByClaims = { years: 3, answer: 'maybe' };
    const { problems } = validatePackage({ ...document, 'questions.json': questions }, () => []);
    expect(problems.filter((problem) => problem.file === 'questions.json').map((problem) => `${problem.path}: ${problem.problem}`)).toEqual([
      'questions.0.answeredByClaims: Construction Type: only an underwriting question is answered by the policy\'s claims',
      'questions.0.answeredByClaims.answer: Construction Type: yes is not one of its options (Frame, Masonry, Superior)',
      'questions.2.answeredByClaims.answer: Losses in past 3 years: maybe is not one of its options (yes, no)',
    ]);
  });
});
