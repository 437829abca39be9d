/**
 * The rating engine: rates every line item of a revision by its catalog steps, and adds
 * up annual and written (daily pro-rata) premiums and fees. Pure: the catalog and the
 * revision in, figures out.
 */
import { notWrittenProblem, productForFiling, resolveFiling, type ProductCatalog, type RateVersion } from '../catalog/index.js';
import { BusinessRuleError } from '../platform/errors.js';
import { daysBetween } from '../platform/dates.js';
import { formatCents, percentOf, prorate, sum, type Cents } from '../platform/money.js';
import { indexCatalog, missingInput, type CatalogIndex, type PlacedItem, type RatedPremium, type StepContext } from './context.js';
import { formsAttached } from './forms.js';
import {
  RatingInputError,
  type LineItemToRate,
  type PropertyToRate,
  type RatedLineItem,
  type RatedRevision,
  type RatingDetail,
  type RatingTotals,
  type RenewalCapApplied,
  type RevisionToRate,
  type SubLineTotals,
} from './model.js';
import { ratingRanks } from './order.js';
import { resolveDeductible, resolveLimit } from './references.js';
import { applyStep } from './steps.js';
import { productAtRateVersion, rateVersionOf } from './versions.js';

/**
 * Rates a revision by the filing of its state: the countrywide filing with what the state's
 * own filing overrides (its rate versions, territories, charges). A state where the line is
 * not written, or not yet for the revision's basis, is refused; an endorsement, which keeps its
 * term's rate version, is not asked again.
 */
export function rateRevision(catalogProduct: ProductCatalog, revision: RevisionToRate): RatedRevision {
  const filing = resolveFiling(catalogProduct, revision.state);
  if (!revision.rateVersionId) {
    const problem = notWrittenProblem(catalogProduct, filing, { date: revision.termStart, basis: revision.rateBasis ?? 'new_business' });
    if (problem) throw new BusinessRuleError(`Cannot rate the revision: ${problem}`);
  }
  const version = rateVersionOf({ rateVersions: filing.rateVersions }, revision);
  const product = productAtRateVersion(productForFiling(catalogProduct, filing), version);
  // Rates published with their own territory table keep rating by it.
  const catalog = indexCatalog(product, version?.territories ? { ...filing, territories: version.territories } : filing);
  const { daysInTerm, daysInForce } = termDays(revision);
  const placedItems = placeItems(catalog, revision);
  const ranks = ratingRanks(product.items);
  const order = placedItems.map((placed, index) => ({ placed, index }));
  order.sort((a, b) => ranks.get(a.placed.definition.id)! - ranks.get(b.placed.definition.id)! || a.index - b.index);

  // `fixed`: items already settled (a capped renewal's premiums), which the charges reading premium then read.
  const rateAll = (fixed?: ReadonlyMap<number, RatedLineItem>) => {
    const rated: RatedPremium[] = [];
    const results: RatedLineItem[] = new Array(placedItems.length);
    for (const { placed, index } of order) {
      const item = fixed?.get(index) ?? rateItem({ catalog, revision, placed, rated }, daysInForce, daysInTerm);
      results[index] = item;
      rated.push(item);
    }
    return results;
  };
  let results = rateAll();
  const cap = renewalCapOf(version, revision, results, placedItems, { daysInForce, daysInTerm });
  if (cap) results = rateAll(cap.premiums);
  const allItemIds = placedItems.map((placed) => placed.line.itemId);
  return {
    rateVersion: version ? { id: version.id, name: version.name, ...(version.productVersion ? { productVersion: version.productVersion } : {}) } : null,
    filing: { state: filing.state, filedAs: filing.filedAs },
    items: results,
    totals: totalsOf(results),
    subLines: subLineTotals(results),
    forms: formsAttached(product, revision.policyTypeId, allItemIds),
    daysInTerm,
    daysInForce,
    ...(cap ? { renewalCap: cap.applied } : {}),
  };
}

/**
 * A renewal's premium held to the rate version's cap over the expiring premium: the excess is
 * taken off the items that carry premium in proportion to it (exact to the cent, the odd cents
 * to the largest remainders), each such item's trace ending with a `Renewal Cap` step. Charges
 * read the capped premium (the caller rates them again). Undefined when nothing is capped.
 */
function renewalCapOf(
  version: RateVersion | null,
  revision: RevisionToRate,
  results: readonly RatedLineItem[],
  placed: readonly PlacedItem[],
  days: { daysInForce: number; daysInTerm: number },
): { premiums: Map<number, RatedLineItem>; applied: RenewalCapApplied } | undefined {
  const percent = version?.renewalCapPercent;
  const expiring = revision.expiringPremiumCents;
  if (!percent || expiring === undefined || expiring <= 0 || (revision.rateBasis ?? 'new_business') !== 'renewal') return undefined;
  const premiumItems = results.map((item, index) => ({ item, index })).filter(({ item }) => item.type !== 'fee');
  const uncapped = sum(premiumItems.map(({ item }) => item.annualPremiumCents));
  const allowed = expiring + percentOf(expiring, percent);
  if (uncapped <= allowed) return undefined;
  const carrying = premiumItems.filter(({ item }) => item.annualPremiumCents > 0);
  const shares = capShares(carrying.map(({ item }) => item.annualPremiumCents), uncapped - allowed);
  const basis = `capped at ${percent}% over the expiring premium ${formatCents(expiring)}`;
  const premiums = new Map<number, RatedLineItem>();
  carrying.forEach(({ item, index }, position) => {
    const annual = item.annualPremiumCents - shares[position];
    const written = placed[index].definition.earning === 'fullyEarned' ? annual : prorate(annual, days.daysInForce, days.daysInTerm);
    premiums.set(index, { ...item, annualPremiumCents: annual, writtenPremiumCents: written, ratingDetails: [...item.ratingDetails, { name: RENEWAL_CAP_STEP, runningTotalCents: annual, basis }] });
  });
  for (const { item, index } of premiumItems) if (!premiums.has(index)) premiums.set(index, item);
  return { premiums, applied: { percent, expiringPremiumCents: expiring, uncappedPremiumCents: uncapped, cappedPremiumCents: allowed } };
}

/** The name of the step a capped renewal's trace ends with. */
export const RENEWAL_CAP_STEP = 'Renewal Cap';

/** `total` split over `weights` in proportion, whole cents adding up exactly (largest remainders take the odd cents, the first on a tie). */
export function capShares(weights: readonly Cents[], total: Cents): Cents[] {
  const whole = weights.reduce((all, weight) => all + BigInt(weight), 0n);
  if (whole === 0n) return weights.map(() => 0);
  const exact = weights.map((weight) => BigInt(weight) * BigInt(total));
  const shares = exact.map((value) => value / whole);
  let left = BigInt(total) - shares.reduce((all, share) => all + share, 0n);
  const byRemainder = exact.map((value, index) => ({ index, remainder: value % whole })).sort((a, b) => (b.remainder > a.remainder ? 1 : b.remainder < a.remainder ? -1 : a.index - b.index));
  for (const { index } of byRemainder) {
    if (left <= 0n) break;
    shares[index] += 1n;
    left -= 1n;
  }
  return shares.map(Number);
}

function termDays(revision: RevisionToRate): { daysInTerm: number; daysInForce: number } {
  const daysInTerm = daysBetween(revision.termStart, revision.termEnd);
  const revisionProblem = (missing: string) =>
    new RatingInputError({ propertyId: null, propertyName: null, itemId: null, itemName: null, missing });
  if (!Number.isInteger(daysInTerm) || daysInTerm <= 0) {
    throw revisionProblem(`a term that ends after it starts (${revision.termStart} to ${revision.termEnd})`);
  }
  const daysInForce = revision.daysInForce ?? daysInTerm;
  if (!Number.isInteger(daysInForce) || daysInForce < 0 || daysInForce > daysInTerm) {
    throw revisionProblem(`days in force between 0 and the ${daysInTerm} days of the term (given ${daysInForce})`);
  }
  return { daysInTerm, daysInForce };
}

/** Every line item with its catalog definition and the items beside it, policy items first. */
function placeItems(catalog: CatalogIndex, revision: RevisionToRate): PlacedItem[] {
  const place = (line: LineItemToRate, property: PropertyToRate | null, neighbours: readonly LineItemToRate[]): PlacedItem => {
    const definition = catalog.items.get(line.itemId);
    if (!definition) throw missingInput({ property, line }, `item ${line.itemId}, which the catalog does not have`);
    const expected = property ? 'property' : 'policy';
    if (definition.category !== expected) {
      throw missingInput({ property, line, definition }, `a ${definition.category} item cannot be rated on the ${expected}`);
    }
    return { line, definition, property, neighbours };
  };
  return [
    ...revision.policyItems.map((line) => place(line, null, revision.policyItems)),
    ...revision.properties.flatMap((property) => property.items.map((line) => place(line, property, property.items))),
  ];
}

function rateItem(context: StepContext, daysInForce: number, daysInTerm: number): RatedLineItem {
  const { placed, catalog } = context;
  const { definition, line, property } = placed;
  const details: RatingDetail[] = [];
  if (definition.type !== 'nonRate') {
    let running: Cents = 0;
    for (const step of definition.rating.steps) {
      const applied = applyStep(context, step, running);
      running = applied.cents;
      details.push({ name: step.name, runningTotalCents: running, ...(applied.basis ? { basis: applied.basis } : {}) });
    }
  }
  const territoryStep = definition.rating.steps.findIndex((step) => step.op === 'territory');
  const territory = territoryStep >= 0 ? details[territoryStep]?.basis : undefined;
  const annual = details.at(-1)?.runningTotalCents ?? 0;
  // A fully earned charge is written whole whatever part of the term the revision covers.
  const written = definition.earning === 'fullyEarned' ? annual : prorate(annual, daysInForce, daysInTerm);
  const isFee = definition.type === 'fee';
  return {
    id: line.id,
    itemId: definition.id,
    name: definition.name,
    propertyId: property?.id ?? null,
    subLineId: definition.subLineId,
    category: definition.category,
    type: definition.type,
    limitCents: resolveLimit(catalog, placed),
    deductibleCents: resolveDeductible(placed),
    annualPremiumCents: isFee ? 0 : annual,
    writtenPremiumCents: isFee ? 0 : written,
    annualFeeCents: isFee ? annual : 0,
    writtenFeeCents: isFee ? written : 0,
    ratingDetails: details,
    ...(definition.charge ? { charge: definition.charge } : {}),
    ...(territory ? { territory } : {}),
  };
}

function totalsOf(items: readonly RatedLineItem[]): RatingTotals {
  const annualPremiumCents = sum(items.map((item) => item.annualPremiumCents));
  const annualFeeCents = sum(items.map((item) => item.annualFeeCents));
  const writtenPremiumCents = sum(items.map((item) => item.writtenPremiumCents));
  const writtenFeeCents = sum(items.map((item) => item.writtenFeeCents));
  const charges = items.filter((item) => item.charge);
  return {
    ...(charges.length > 0 ? { annualChargeCents: sum(charges.map((item) => item.annualFeeCents)), writtenChargeCents: sum(charges.map((item) => item.writtenFeeCents)) } : {}),
    annualPremiumCents,
    annualFeeCents,
    annualTotalCents: annualPremiumCents + annualFeeCents,
    writtenPremiumCents,
    writtenFeeCents,
    writtenTotalCents: writtenPremiumCents + writtenFeeCents,
  };
}

/** Totals per sub line instance (a catalog sub line on one property, or on the revision), in first-seen order. */
function subLineTotals(items: readonly RatedLineItem[]): SubLineTotals[] {
  const groups = new Map<string, RatedLineItem[]>();
  for (const item of items) {
    const key = `${item.subLineId}|${item.propertyId ?? ''}`;
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return [...groups.values()].map((group) => ({ subLineId: group[0].subLineId, propertyId: group[0].propertyId, ...totalsOf(group) }));
}
