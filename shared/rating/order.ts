/**
 * The order items are rated in: an item whose steps read other items' premiums
 * (`percentOfPremiums`) comes after every item it reads, so a discount sees the coverages.
 */
import type { ItemDefinition } from '../catalog/index.js';
import { RatingRuleError } from './model.js';

/** Catalog items that `definition` reads the premiums of. */
function premiumsRead(definition: ItemDefinition, all: readonly ItemDefinition[]): ItemDefinition[] {
  // A charge on the policy's premium reads every item that is not a fee.
  if (definition.rating.steps.some((step) => step.op === 'percentOfPolicyPremium')) return all.filter((other) => other.id !== definition.id && other.type !== 'fee');
  const targets = definition.rating.steps.flatMap((step) => (step.op === 'percentOfPremiums' ? [step.of] : []));
  if (targets.length === 0) return [];
  return all.filter(
    (other) => other.id !== definition.id && targets.some((target) => target.category === other.category && target.type === other.type),
  );
}

/**
 * A rank per catalog item: 0 for items that read no premiums, else one more than the
 * highest rank it reads. Items that read each other's premiums have no order: a
 * `RatingRuleError` names them.
 */
export function ratingRanks(definitions: readonly ItemDefinition[]): Map<string, number> {
  const ranks = new Map<string, number>();
  const visiting = new Set<string>();
  const rankOf = (definition: ItemDefinition): number => {
    const known = ranks.get(definition.id);
    if (known !== undefined) return known;
    if (visiting.has(definition.id)) throw new RatingRuleError(`${definition.name} reads premiums that depend on its own`);
    visiting.add(definition.id);
    const rank = premiumsRead(definition, definitions).reduce((highest, other) => Math.max(highest, rankOf(other) + 1), 0);
    visiting.delete(definition.id);
    ranks.set(definition.id, rank);
    return rank;
  };
  for (const definition of definitions) rankOf(definition);
  return ranks;
}
