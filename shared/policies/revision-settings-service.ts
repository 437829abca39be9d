/**
 * Revision-wide settings: the underwriting answers and options, the term dates and
 * the last-visited wizard position.
 */
import { randomUUID } from 'node:crypto';
import { getProductCatalog } from '../catalog/index.js';
import { BusinessRuleError, NotFoundError } from '../platform/errors.js';
import { policyWithinReach, revisionWithinReach, type Principal } from './access.js';
import type { RevisionChange, RevisionRecord, TermType, UnderwritingAnswer, UnderwritingOption } from './model.js';
import { UNRATED_TOTALS, isRated, questionsReadByRating, resetPremiums } from './premiums.js';
import { applyRating, revisionToRate } from './rating-input.js';
import { storeRatedItems } from './rating-store.js';
import { rateRevision } from '../rating/index.js';
import { RevisionNotOpenError, changeRevision, loadRevision, setPolicyLastVisited } from './store.js';
import { missingMandatoryItems } from './structure.js';
import { inceptionFollowsTerm, movedTerm } from './terms.js';
import { mergeUnderwritingOptions, validateUnderwritingAnswers } from './underwriting.js';
import { searchTermDatesChange } from '../search/index.js';
import { clock } from '../platform/clock.js';

// ---------------------------------------------------------------- underwriting

export async function updateUnderwritingQuestions(principal: Principal, input: { revision_id: string; underwriting_questions: UnderwritingAnswer[] }) {
  const snapshot = await revisionWithinReach(principal, input.revision_id, { open: true });
  const product = await getProductCatalog();
  const answers = validateUnderwritingAnswers(product, input.underwriting_questions, snapshot.header.underwritingQuestions);
  const before = new Map(snapshot.header.underwritingQuestions.map((answer) => [answer.questionId, answer.yesNoAnswer]));
  const after = new Map(answers.map((answer) => [answer.questionId, answer.yesNoAnswer]));
  const changed = [...new Set([...before.keys(), ...after.keys()])].filter((questionId) => before.get(questionId) !== after.get(questionId));
  const read = questionsReadByRating(product);
  // An answer no rating step reads (vacancy, say) cannot move the premium: the premiums stay as they are.
  if (!changed.some((questionId) => read.has(questionId)) || !isRated(snapshot)) {
    await changeRevision(snapshot.header, { header: { underwritingQuestions: answers } });
    return;
  }
  // One that does (losses, for the claims-free discount) is rated again on the change, its trace stored with it.
  const answered = { ...snapshot, header: { ...snapshot.header, underwritingQuestions: answers } };
  const { items, totals } = applyRating(answered, rateRevision(product, revisionToRate(answered)));
  await storeRatedItems(snapshot.header, items, { underwritingQuestions: answers, ...totals, builderPending: false });
}

export async function updateUnderwritingOptions(principal: Principal, input: { revision_id: string; underwriting_options: UnderwritingOption[] }) {
  const snapshot = await revisionWithinReach(principal, input.revision_id, { open: true });
  const options = mergeUnderwritingOptions(snapshot.header.underwritingOptions, input.underwriting_options);
  await changeRevision(snapshot.header, { header: { underwritingOptions: options } });
  return { revision_id: snapshot.header.id, underwriting_options: options };
}

// ---------------------------------------------------------------- term dates

/** The policy's active term and its open revision. */
async function activeTermWithinReach(principal: Principal, policyId: string) {
  const { policy, terms } = await policyWithinReach(principal, { policyId });
  const term = terms.find((candidate) => candidate.id === policy.activeTermId) ?? terms[terms.length - 1];
  if (!term) throw new NotFoundError(`The term of policy ${policy.policyNumber}`);
  const snapshot = await loadRevision(policy.activeRevisionId);
  if (!snapshot) throw new NotFoundError(`The revision of policy ${policy.policyNumber}`);
  if (snapshot.header.revisionState !== 'open') throw new RevisionNotOpenError(snapshot.header.id, snapshot.header.revisionState);
  return { policy, terms, term, snapshot };
}

export async function updateEffectiveAndExpirationDate(
  principal: Principal,
  input: { policy_id: string; effective_date?: string; expiration_date?: string; policy_term_type?: TermType; policy_type_id?: string },
) {
  const { policy, terms, term, snapshot } = await activeTermWithinReach(principal, input.policy_id);
  const moved = movedTerm(term, input);
  const product = await getProductCatalog();
  const header: Partial<RevisionRecord> = { termStart: moved.effectiveDate, termEnd: moved.expirationDate, revisionDate: moved.effectiveDate, ...UNRATED_TOTALS };
  const change: RevisionChange = { header, create: [] };
  if (input.policy_type_id && input.policy_type_id !== snapshot.header.policyTypeId) {
    if (!product.policyTypes.some((type) => type.id === input.policy_type_id)) throw new BusinessRuleError(`policy_type_id: ${input.policy_type_id} is not a policy type of the catalog`);
    header.policyTypeId = input.policy_type_id;
    change.create = missingMandatoryItems(product, snapshot, input.policy_type_id, clock.now(), randomUUID);
  }
  change.replace = resetPremiums(snapshot.items);
  const { effectiveDate, expirationDate, termType, termLength } = moved;
  change.term = { policyId: policy.id, termId: term.id, expectedVersion: term.version, set: { effectiveDate, expirationDate, termType, termLength } };
  if (inceptionFollowsTerm(policy, terms[0]?.id === term.id, term, effectiveDate)) {
    change.policy = { policyId: policy.id, expectedVersion: policy.version, set: { inceptionDate: effectiveDate } };
  }
  // The search record shows the active term's dates and the policy type: it moves with them.
  const typeName = product.policyTypes.find((type) => type.id === (header.policyTypeId ?? snapshot.header.policyTypeId))?.name ?? '';
  change.handedWrites = searchTermDatesChange(policy.id, { effectiveDate, expirationDate, policyTypeId: header.policyTypeId ?? snapshot.header.policyTypeId, policyTypeName: typeName });
  await changeRevision(snapshot.header, change);
  return { policy_term: termType, effective_date: effectiveDate, expiration_date: expirationDate, term_length: termLength };
}

// ---------------------------------------------------------------- last visited

export async function updatePolicyLastVisited(principal: Principal, input: { policy_id: string; params: Record<string, unknown>; revision_id?: string }) {
  const { policy, terms } = await policyWithinReach(principal, { policyId: input.policy_id });
  if (input.revision_id && !terms.some((term) => term.revisionIds.includes(input.revision_id!))) {
    throw new NotFoundError(`Revision ${input.revision_id} of policy ${policy.policyNumber}`);
  }
  await setPolicyLastVisited(policy, { params: input.params, revisionId: input.revision_id ?? null, at: clock.now().toISOString() });
}
