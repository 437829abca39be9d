/** Premiums of items: update_rating_information. */
import { getProductCatalog } from '../catalog/index.js';
import { BusinessRuleError, NotFoundError } from '../platform/errors.js';
import { revisionWithinReach, riskWithinReach, type Principal } from './access.js';
import type { RatingItemChange, RevisionChange, RevisionSnapshot, RiskRecord } from './model.js';
import { UNRATED_TOTALS, planRatingChanges } from './premiums.js';
import { changeRevision } from './store.js';
import { lineItemToWire } from './wire.js';

/** The revision (and the property, when one is named) a rating change applies to. */
async function ratingScope(principal: Principal, input: { property_id?: string; revision_id?: string }): Promise<{ snapshot: RevisionSnapshot; risk?: RiskRecord }> {
  if (input.property_id) {
    const { snapshot, risk } = await riskWithinReach(principal, input.property_id, { open: true });
    if (input.revision_id && input.revision_id !== snapshot.header.id) throw new NotFoundError(`Property ${input.property_id} of revision ${input.revision_id}`);
    return { snapshot, risk };
  }
  if (input.revision_id) return { snapshot: await revisionWithinReach(principal, input.revision_id, { open: true }) };
  throw new BusinessRuleError('property_id: give property_id or revision_id');
}

export async function updateRatingInformation(
  principal: Principal,
  input: { property_id?: string; revision_id?: string; items: RatingItemChange[]; reset_premiums: boolean; update_review: boolean },
) {
  const { snapshot, risk } = await ratingScope(principal, input);
  const plan = planRatingChanges(snapshot, await getProductCatalog(), input.items, { riskId: risk?.id, resetPremiums: input.reset_premiums });
  if (plan.problems.length) throw new BusinessRuleError(plan.problems);
  const change: RevisionChange = { replace: [...plan.items] };
  for (const [riskId, answers] of plan.answersByRisk) {
    const target = snapshot.risks.find((candidate) => candidate.id === riskId)!;
    change.replace!.push({ ...target, questions: { ...target.questions, ...answers } });
  }
  if (input.reset_premiums) change.header = { ...UNRATED_TOTALS };
  await changeRevision(snapshot.header, change);
  return {
    ...(risk ? { property_id: risk.id } : {}),
    revision_id: snapshot.header.id,
    reset_premiums: input.reset_premiums,
    items: plan.items.map(lineItemToWire),
  };
}
