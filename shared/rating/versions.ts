/**
 * Rates by date: which rate version a revision is rated at, and the product as that version
 * rates it. New business (quotes, new policies) takes the version in force for new business on
 * its term's start; a renewal the version in force for renewals on its start; an endorsement the
 * version its term was rated at (the rating input names it). Pure.
 */
import type { ProductCatalog, RateVersion } from '../catalog/index.js';
import { BusinessRuleError } from '../platform/errors.js';

export type RateBasis = 'new_business' | 'renewal';

/** The version in force on `date` for `basis`: the latest whose effective date for it is on or before the date. */
export function rateVersionFor(product: Pick<ProductCatalog, 'rateVersions'>, question: { date: string; basis: RateBasis }): RateVersion {
  const effective = (version: RateVersion) => (question.basis === 'renewal' ? version.renewalEffectiveDate : version.newBusinessEffectiveDate);
  const inForce = product.rateVersions.filter((version) => effective(version) <= question.date).sort((a, b) => effective(a).localeCompare(effective(b)));
  const version = inForce.at(-1);
  if (!version) throw new BusinessRuleError(`effective_date: the product has no rates in force for ${question.basis === 'renewal' ? 'renewals' : 'new business'} on ${question.date}`);
  return version;
}

/** The version a revision is rated at: the one it names, else the one in force for its basis on its start; none in a catalog without versions. */
export function rateVersionOf(product: Pick<ProductCatalog, 'rateVersions'>, revision: { rateVersionId?: string | null; rateBasis?: RateBasis; termStart: string }): RateVersion | null {
  if (product.rateVersions.length === 0) return null;
  if (revision.rateVersionId) {
    const named = product.rateVersions.find((version) => version.id === revision.rateVersionId);
    if (named) return named;
  }
  return rateVersionFor(product, { date: revision.termStart, basis: revision.rateBasis ?? 'new_business' });
}

/** The product with each item's rating steps as the version rates it. */
export function productAtRateVersion(product: ProductCatalog, version: RateVersion | null): ProductCatalog {
  if (!version || Object.keys(version.items).length === 0) return product;
  return { ...product, items: product.items.map((item) => (version.items[item.id] ? { ...item, rating: { steps: version.items[item.id].steps } } : item)) };
}
