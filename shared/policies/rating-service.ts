/** Rating a stored revision: rate_revision, rate_risk, reset_*_premium, retrieve_rates_for_quote. */
import { getProductCatalog } from '../catalog/index.js';
import { BusinessRuleError } from '../platform/errors.js';
import { toAmount, toCents, type Cents } from '../platform/money.js';
import type { Principal } from '../platform/principal.js';
import { rateRevision, type RatedRevision, type RevisionToRate } from '../rating/index.js';
import { revisionWithinReach, riskWithinReach } from './access.js';
import { applyRating, ratingTrace, revisionToRate, totalsOfItems, type RevisionTotals } from './rating-input.js';
import { storeRatedItems } from './rating-store.js';
import type { LineItemRecord, RevisionRating, RevisionRecord, RevisionSnapshot } from './model.js';
import { UNRATED_TOTALS, resetPremiums } from './premiums.js';
import { changeRevision } from './store.js';
import { bySortOrder, lineItemToWire, subLineToWire } from './wire.js';

const amount = (cents: Cents) => toAmount(cents);

function totalsToWire(totals: RevisionTotals) {
  return {
    annual_fee: amount(totals.annualFeeCents),
    annual_premium: amount(totals.annualPremiumCents),
    written_fee: amount(totals.writtenFeeCents),
    written_premium: amount(totals.writtenPremiumCents),
  };
}

/** The rate_revision / rate_risk answer over the items (all, or one property's) and their sub lines. */
export function ratingAnswer(snapshot: RevisionSnapshot, items: readonly LineItemRecord[], riskId?: string) {
  const inScope = items.filter((item) => riskId === undefined || item.riskId === riskId).sort(bySortOrder);
  const subLines = snapshot.subLines
    .filter((subLine) => riskId === undefined || subLine.riskId === riskId)
    .sort(bySortOrder)
    .map((subLine) => ({ ...subLineToWire(subLine), ...totalsToWire(totalsOfItems(inScope.filter((item) => item.subLineInstanceId === subLine.id))) }));
  return { ...totalsToWire(totalsOfItems(inScope)), items: inScope.map(lineItemToWire), sub_lines: subLines };
}

/** The snapshot rated: every item's figures and step trace, and the totals the header takes. Nothing is written. */
async function ratingOf(snapshot: RevisionSnapshot): Promise<RevisionRating> {
  const { items, totals } = applyRating(snapshot, rateRevision(await getProductCatalog(), revisionToRate(snapshot)));
  return { set: { ...totals, builderPending: false }, items };
}

/** The snapshot rated in memory, as it stands once its rating is stored, and what storing it writes. Nothing is written. */
export async function ratedInMemory(snapshot: RevisionSnapshot): Promise<{ snapshot: RevisionSnapshot; rating: RevisionRating }> {
  const rating = await ratingOf(snapshot);
  return { snapshot: { ...snapshot, header: { ...snapshot.header, ...rating.set }, items: rating.items }, rating };
}

/** Rates the snapshot and stores every item's figures and step trace, and the revision totals; the rated items. */
async function rateAndStore(snapshot: RevisionSnapshot): Promise<LineItemRecord[]> {
  const rating = await ratingOf(snapshot);
  await storeRatedItems(snapshot.header, rating.items, rating.set);
  return rating.items;
}

export async function rateStoredRevision(principal: Principal, revisionId: string) {
  const snapshot = await revisionWithinReach(principal, revisionId, { open: true });
  return ratingAnswer(snapshot, await rateAndStore(snapshot));
}

/**
 * A property's premiums depend on the rest of the revision (a discount reads every
 * property's coverages), so the whole revision is rated and stored; the answer is the property's.
 */
export async function rateStoredRisk(principal: Principal, riskId: string) {
  const { snapshot } = await riskWithinReach(principal, riskId, { open: true });
  return ratingAnswer(snapshot, await rateAndStore(snapshot), riskId);
}

export async function resetRevisionPremium(principal: Principal, revisionId: string) {
  const snapshot = await revisionWithinReach(principal, revisionId, { open: true });
  await changeRevision(snapshot.header, { replace: resetPremiums(snapshot.items), header: { ...UNRATED_TOTALS } });
  return [];
}

/** Clears the property's calculated premiums; the revision totals no longer hold, so they go too. */
export async function resetRiskPremium(principal: Principal, riskId: string) {
  const { snapshot } = await riskWithinReach(principal, riskId, { open: true });
  await changeRevision(snapshot.header, { replace: resetPremiums(snapshot.items.filter((item) => item.riskId === riskId)), header: { ...UNRATED_TOTALS } });
  return [];
}

// ---------------------------------------------------------------- retrieve_rates_for_quote

export interface RatingSpec {
  items?: Array<{ id: string; limit?: string | number | null; deductible?: string | number | null }>;
  /** Answers by question id, applied to every property (property questions) or the revision. */
  questions?: Record<string, string>;
}

/** The rating input with one spec's limits, deductibles and answers in place of the stored ones. */
export function withSpec(input: RevisionToRate, spec: RatingSpec, index: number): RevisionToRate {
  const changes = new Map((spec.items ?? []).map((change) => [change.id, change]));
  const known = new Set([...input.policyItems, ...input.properties.flatMap((property) => property.items)].flatMap((line) => [line.id, line.itemId]));
  for (const id of changes.keys()) if (!known.has(id)) throw new BusinessRuleError(`rating_specs.${index}.items: ${id} is not an item of the revision`);
  const cents = (value: string | number | null | undefined, current: Cents | null | undefined) => (value === undefined ? current : value === null ? null : toCents(value));
  const apply = <T extends { id: string; itemId: string; limitCents?: Cents | null; deductibleCents?: Cents | null }>(line: T): T => {
    const change = changes.get(line.id) ?? changes.get(line.itemId);
    return change ? { ...line, limitCents: cents(change.limit, line.limitCents), deductibleCents: cents(change.deductible, line.deductibleCents) } : line;
  };
  const answers = spec.questions ?? {};
  return {
    ...input,
    answers: { ...input.answers, ...answers },
    policyItems: input.policyItems.map(apply),
    properties: input.properties.map((property) => ({ ...property, answers: { ...property.answers, ...answers }, items: property.items.map(apply) })),
  };
}

/** Rates the revision once per spec; nothing stored changes. */
export async function retrieveRatesForQuote(principal: Principal, input: { revision_id: string; rating_specs: RatingSpec[] }) {
  const snapshot = await revisionWithinReach(principal, input.revision_id);
  const product = await getProductCatalog();
  const base = revisionToRate(snapshot);
  return input.rating_specs.map((spec, index) => {
    const rated = rateRevision(product, withSpec(base, spec, index));
    return {
      spec,
      annual_premium: amount(rated.totals.annualPremiumCents),
      annual_fee: amount(rated.totals.annualFeeCents),
      written_premium: amount(rated.totals.writtenPremiumCents),
      written_fee: amount(rated.totals.writtenFeeCents),
      items: rated.items.map((item) => ({
        id: item.id,
        item_id: item.itemId,
        name: item.name,
        property_id: item.propertyId,
        limit: item.limitCents === null ? null : amount(item.limitCents),
        annual_premium: amount(item.annualPremiumCents),
        annual_fee: amount(item.annualFeeCents),
        rating_details: ratingTrace(item.ratingDetails),
      })),
    };
  });
}
