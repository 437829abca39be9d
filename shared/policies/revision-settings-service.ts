/**
 * Revision-wide settings: the underwriting answers and options, the term dates and
 * the last-visited wizard position.
 */
import { randomUUID } from 'node:crypto';
import { getProductCatalog, type ProductCatalog } from '../catalog/index.js';
import { BusinessRuleError, NotFoundError } from '../platform/errors.js';
import { policyWithinReach, revisionWithinReach, type Principal } from './access.js';
import type { RevisionChange, RevisionRecord, RevisionSnapshot, TermRecord, TermType, UnderwritingAnswer, UnderwritingOption } from './model.js';
import { UNRATED_TOTALS, isRated, questionsReadByRating, resetPremiums } from './premiums.js';
import { applyRating, revisionToRate } from './rating-input.js';
import { storeRatedItems } from './rating-store.js';
import { rateRevision } from '../rating/index.js';
import { RevisionNotOpenError, changeRevision, loadRevision, setPolicyLastVisited } from './store.js';
import { availabilityOf, findItemDefinition, missingMandatoryItems } from './structure.js';
import { termRevisionFacts } from './term-revisions.js';
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

/**
 * The policy's active term and the open revision a change of it edits: a quote's own revision,
 * or, once the policy is issued, the term's open endorsement or rewrite (`issued`).
 */
async function activeTermWithinReach(principal: Principal, policyId: string) {
  const { policy, terms } = await policyWithinReach(principal, { policyId });
  const term = terms.find((candidate) => candidate.id === policy.activeTermId) ?? terms[terms.length - 1];
  if (!term) throw new NotFoundError(`The term of policy ${policy.policyNumber}`);
  const snapshot = await loadRevision(policy.activeRevisionId);
  if (!snapshot) throw new NotFoundError(`The revision of policy ${policy.policyNumber}`);
  if (snapshot.header.revisionState === 'open') return { policy, terms, term, snapshot, issued: false };
  const open = (await termRevisionFacts(term)).find((facts) => facts.revisionState === 'open');
  const change = open && (await loadRevision(open.id));
  if (!change || change.header.revisionState !== 'open') throw new RevisionNotOpenError(snapshot.header.id, snapshot.header.revisionState);
  return { policy, terms, term, snapshot: change, issued: true };
}

type TermSettings = { policy_id: string; effective_date?: string; expiration_date?: string; policy_term_type?: TermType; policy_type_id?: string };

/**
 * The policy type of an open revision set to `policyTypeId`: the items the new type makes
 * mandatory or automatic added (their default limits), those it does not offer taken off, and
 * every premium reset for the revision to be rated again.
 */
function policyTypeChange(product: ProductCatalog, snapshot: RevisionSnapshot, policyTypeId: string): Pick<RevisionChange, 'create' | 'remove' | 'replace'> & { header: Partial<RevisionRecord> } {
  if (!product.policyTypes.some((type) => type.id === policyTypeId)) throw new BusinessRuleError(`policy_type_id: ${policyTypeId} is not a policy type of the catalog`);
  const offered = (itemId: string) => {
    const definition = findItemDefinition(product, itemId);
    return !definition || availabilityOf(definition, policyTypeId) !== undefined;
  };
  const remove = snapshot.items.filter((item) => !offered(item.itemId));
  const kept = snapshot.items.filter((item) => offered(item.itemId));
  return {
    header: { policyTypeId, ...UNRATED_TOTALS },
    create: missingMandatoryItems(product, { ...snapshot, items: kept }, policyTypeId, clock.now(), randomUUID),
    remove,
    replace: resetPremiums(kept),
  };
}

/**
 * An issued policy's term settings, changed on its open revision. A rewrite revision takes any
 * policy type of the catalog (the change an endorsement cannot make); its dates are the ones the
 * rewrite was opened with, and the term in force, the policy and its search record stay as they
 * are until the rewrite is issued. An endorsement changes neither the policy type nor the dates.
 */
async function changeIssuedPolicySettings(policyNumber: string, term: TermRecord, snapshot: RevisionSnapshot, input: TermSettings) {
  const { header } = snapshot;
  // An endorsement of a rewritten term may still carry the rewrite's facts it was copied from: it is an endorsement.
  const rewrite = header.endorsement ? undefined : header.rewrite;
  const changesType = !!input.policy_type_id && input.policy_type_id !== header.policyTypeId;
  if (!rewrite) {
    if (changesType) {
      throw new BusinessRuleError(`policy_type_id: revision ${header.id} is an endorsement of policy ${policyNumber}, which cannot change the policy type; rewrite the policy (rewrite_policy) to change it`);
    }
    if (input.effective_date || input.expiration_date || input.policy_term_type) {
      throw new BusinessRuleError(`effective_date: policy ${policyNumber} is issued; its term's dates change by a rewrite (rewrite_policy), not by its endorsement ${header.id}`);
    }
    const { termType, termLength } = movedTerm(term, {});
    return { policy_term: termType, effective_date: term.effectiveDate, expiration_date: term.expirationDate, term_length: termLength };
  }
  const moved = movedTerm({ effectiveDate: rewrite.effectiveDate, expirationDate: rewrite.expirationDate, termType: 'Custom' }, {});
  for (const [field, date] of [['effective_date', rewrite.effectiveDate], ['expiration_date', rewrite.expirationDate]] as const) {
    if (input[field] && input[field] !== date) {
      throw new BusinessRuleError(`${field}: the rewrite ${header.id} runs ${rewrite.effectiveDate} to ${rewrite.expirationDate}, as rewrite_policy opened it; discard it and rewrite again for other dates`);
    }
  }
  if (changesType) await changeRevision(header, policyTypeChange(await getProductCatalog(), snapshot, input.policy_type_id!));
  return { policy_term: moved.termType, effective_date: moved.effectiveDate, expiration_date: moved.expirationDate, term_length: moved.termLength };
}

export async function updateEffectiveAndExpirationDate(principal: Principal, input: TermSettings) {
  const { policy, terms, term, snapshot, issued } = await activeTermWithinReach(principal, input.policy_id);
  if (issued) return changeIssuedPolicySettings(policy.policyNumber, term, snapshot, input);
  const moved = movedTerm(term, input);
  const product = await getProductCatalog();
  const header: Partial<RevisionRecord> = { termStart: moved.effectiveDate, termEnd: moved.expirationDate, revisionDate: moved.effectiveDate, ...UNRATED_TOTALS };
  const change: RevisionChange = { header, create: [] };
  if (input.policy_type_id && input.policy_type_id !== snapshot.header.policyTypeId) {
    const typeChange = policyTypeChange(product, snapshot, input.policy_type_id);
    Object.assign(header, typeChange.header);
    change.create = typeChange.create;
    change.remove = typeChange.remove;
    change.replace = typeChange.replace;
  } else {
    change.replace = resetPremiums(snapshot.items);
  }
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
